import { randomUUID } from "node:crypto";
import { asc } from "drizzle-orm";
import { ensureDatabase, getDb } from "@/lib/db/client";
import { companies, transactions } from "@/lib/db/schema";
import { getEnv } from "@/lib/env";

/**
 * The benchmark's ceiling for a Next.js route handler (`npm run bench`): read a JSON body and insert
 * one pending PIX row into transactions, nothing else (no auth, validation, timeline, outbox). A route
 * only in a benchmark build (BENCH_BUILD=1: next.config.mjs's pageExtensions), and there only with
 * BENCH_BASELINE=1; a production build has no such route at all.
 */
let companyId: number | undefined;

export async function POST(req: Request): Promise<Response> {
  if (!getEnv().benchBaseline) return new Response(null, { status: 404 });
  await ensureDatabase();
  const body = (await req.json()) as { amount?: number; customer?: { name?: string; email?: string; document?: { number?: string } } };
  if (companyId === undefined) {
    const [c] = await getDb().select({ id: companies.id }).from(companies).orderBy(asc(companies.id)).limit(1);
    companyId = c.id;
  }
  const amount = Number(body.amount ?? 1000);
  const [row] = await getDb()
    .insert(transactions)
    .values({
      companyId,
      secureId: randomUUID(),
      status: "pending",
      paymentMethod: "pix",
      amount,
      acquirerType: "bench",
      customer: {
        name: body.customer?.name ?? "Bench",
        email: body.customer?.email ?? "bench@example.com",
        phone: null,
        externalRef: null,
        document: { type: "cpf", number: body.customer?.document?.number ?? "11144477735" },
      },
      customerEmail: body.customer?.email ?? "bench@example.com",
      customerDocument: body.customer?.document?.number ?? "11144477735",
      items: [{ title: "Bench", unitPrice: amount, quantity: 1, tangible: false }],
    })
    .returning({ id: transactions.id });
  return Response.json({ success: true, status: 201, data: { id: row.id } }, { status: 201 });
}
