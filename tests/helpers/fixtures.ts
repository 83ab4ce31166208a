import { randomUUID } from "node:crypto";
import { getDb } from "@/lib/db/client";
import { transactions } from "@/lib/db/schema";

/**
 * Inserts a transaction row directly, for tests of reading and listing that must not depend on the
 * creation flow. Columns default to a pending PIX charge.
 */
export async function insertTransaction(companyId: number, over: Partial<typeof transactions.$inferInsert> = {}) {
  const [row] = await getDb()
    .insert(transactions)
    .values({
      companyId,
      secureId: randomUUID(),
      status: "pending",
      paymentMethod: "pix",
      amount: 1000,
      acquirerType: "sandbox",
      customer: {
        name: "Maria Silva",
        email: "maria@example.com",
        phone: "11987654321",
        externalRef: null,
        document: { type: "cpf", number: "11144477735" },
      },
      customerEmail: "maria@example.com",
      customerDocument: "11144477735",
      items: [{ title: "Camiseta", unitPrice: 1000, quantity: 1, tangible: true }],
      ...over,
    })
    .returning();
  return row;
}
