import { isPastExpiry } from "@/lib/domain/expiry";
import { randomUUID } from "node:crypto";
import { getDb, type Tx } from "@/lib/db/client";
import { checkouts, type ItemRecord } from "@/lib/db/schema";
import { PAYMENT_METHODS } from "@/lib/domain/status";
import { formatBRL } from "@/lib/domain/money";
import { parseWith } from "@/lib/core/validation";
import { CreateCheckoutInput } from "@/lib/schemas/checkouts";
import { checkPostbackUrl } from "@/lib/webhooks/ssrf";
import type { ServiceContext } from "../context";
import { validation } from "../errors";
import type { CheckoutWithStatus } from "./checkout-view";

const DAY_MS = 86_400_000;
// The same floor transaction creation applies (docs/api.md, Limits): card and boleto charge at least R$ 1,00.
const MIN_CARD_BOLETO = 100;

/**
 * Creates a payment link. The payer chooses the method on the hosted page. `outer`: the caller's
 * transaction (the idempotency layer's); the link is written in it.
 */
export async function createCheckout(ctx: ServiceContext, raw: unknown, outer?: Tx): Promise<CheckoutWithStatus> {
  const input = parseWith(CreateCheckoutInput, raw, "payment link");

  const items: ItemRecord[] = input.items
    ? input.items.map((i) => ({ title: i.title, unitPrice: i.unitPrice, quantity: i.quantity, tangible: i.tangible }))
    : [{ title: input.description || "Pagamento", unitPrice: input.amount!, quantity: 1, tangible: false }];
  const itemsTotal = items.reduce((s, i) => s + i.unitPrice * i.quantity, 0);
  const amount = input.amount ?? itemsTotal;
  if (amount !== itemsTotal) {
    throw validation(`The amount (${amount}) must equal the items' total (${itemsTotal}).`, [
      { field: "amount", message: `must equal the items' total ${itemsTotal} (${formatBRL(itemsTotal)})` },
    ]);
  }
  if (amount > 100_000_000) {
    throw validation("The amount must be at most 100000000 (R$ 1.000.000,00).", [{ field: "amount", message: "must be at most 100000000" }]);
  }
  const methods = input.methods ? PAYMENT_METHODS.filter((m) => input.methods!.includes(m)) : [...PAYMENT_METHODS];
  if (amount < MIN_CARD_BOLETO && methods.some((m) => m !== "pix")) {
    throw validation("Card and boleto charges must be at least 100 centavos (R$ 1,00); offer only pix for a smaller amount.", [
      { field: "amount", message: "must be at least 100 when credit_card or boleto is allowed" },
    ]);
  }

  let expiresAt: Date | null = null;
  if (input.expiresInDays !== undefined) expiresAt = new Date(ctx.now.getTime() + input.expiresInDays * DAY_MS);
  if (input.expiresAt !== undefined) {
    expiresAt = new Date(input.expiresAt);
    if (isPastExpiry(expiresAt, ctx.now)) {
      throw validation("The expiry date must be in the future.", [{ field: "expiresAt", message: "must be in the future" }]);
    }
  }
  if (input.postbackUrl) await checkPostbackUrl(ctx, input.postbackUrl);

  const [row] = await (outer ?? getDb())
    .insert(checkouts)
    .values({
      companyId: ctx.account.id,
      secureId: randomUUID(),
      status: "open",
      amount,
      description: input.description || null,
      items,
      methods,
      externalRef: input.externalRef || null,
      returnUrl: input.returnUrl || null,
      postbackUrl: input.postbackUrl || null,
      metadata: input.metadata?.text ?? null,
      metadataIsJson: input.metadata?.isJson ?? false,
      installmentPlan: input.installmentPlan ?? null,
      expiresAt,
      createdAt: ctx.now,
    })
    .returning();
  return { row, status: "open", paidTransactionId: null, returnedTransactionIds: [] };
}
