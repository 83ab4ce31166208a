/**
 * A payment link is often shared in a group chat: whoever opens it must not be handed another payer's
 * charge (a boleto names its payer and their CPF). The link's page offers "Continuar pagamento" only
 * to the browser that made the charge, proved by its attempt key (POST /checkout/{link}/pending);
 * the page every visitor gets carries nothing of it.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { transactions } from "@/lib/db/schema";
import type { CreatedAccount } from "@/lib/services/accounts/accounts";
import { getCheckoutPageData } from "@/lib/services/checkouts/checkout-page";
import { call } from "../helpers/app";
import { createTestAccount } from "../helpers/accounts";

let a: CreatedAccount;
beforeAll(async () => {
  a = await createTestAccount("Loja Link Compartilhado");
});

const JSON_HEADERS = { "content-type": "application/json" };
const joana = { name: "Joana Pereira Santos", email: "joana@example.com", document: "111.444.777-35" };
const KEY = "JoanaBrowserKey_0123456789abcdef";
const OTHER = "SomeoneElseKey__0123456789abcdef";

async function link() {
  const res = await call("POST", "/api/v1/checkouts", {
    auth: a.secretKey,
    body: { items: [{ title: "Rifa da formatura", unitPrice: 15_990, quantity: 1 }], methods: ["boleto", "pix"] },
  });
  expect(res.status, res.text).toBe(201);
  return res.body.data as { id: number; secureId: string };
}

const pending = (secureId: string, attempt?: string) =>
  call("POST", `/checkout/${secureId}/pending`, { body: attempt === undefined ? {} : { attempt }, headers: JSON_HEADERS });

describe("a charge made from a shared payment link", () => {
  it("is offered back only to the browser whose attempt key made it; the page every visitor gets carries nothing of it", async () => {
    const l = await link();
    const made = await call("POST", `/checkout/${l.secureId}/pay`, { body: { method: "boleto", attempt: KEY, payer: joana }, headers: JSON_HEADERS });
    expect(made.status, made.text).toBe(201);
    const charge = made.body.data.secureId as string;

    // The page's data as every visitor gets it (the e2e checks the HTML another browser is served).
    const page = await getCheckoutPageData(l.secureId);
    expect(page?.kind).toBe("link");
    expect(JSON.stringify(page)).not.toContain(charge);

    // Joana's browser is offered it; anyone else, or no key, is not.
    expect((await pending(l.secureId, KEY)).body.data).toEqual({ secureId: charge, paymentMethod: "boleto" });
    const stranger = await pending(l.secureId, OTHER);
    expect(stranger.status).toBe(200);
    expect(stranger.body.data).toBeNull();
    expect((await pending(l.secureId)).status).toBe(400);
  });

  it("is not offered once it can no longer be paid (expired), nor once the link is paid", async () => {
    const l = await link();
    const made = await call("POST", `/checkout/${l.secureId}/pay`, { body: { method: "pix", attempt: KEY, payer: joana }, headers: JSON_HEADERS });
    expect(made.status, made.text).toBe(201);
    expect((await pending(l.secureId, KEY)).body.data).toMatchObject({ secureId: made.body.data.secureId, paymentMethod: "pix" });
    await getDb().update(transactions).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(transactions.secureId, made.body.data.secureId));
    expect((await pending(l.secureId, KEY)).body.data).toBeNull();

    const l2 = await link();
    const pix = await call("POST", `/checkout/${l2.secureId}/pay`, { body: { method: "pix", attempt: KEY, payer: joana }, headers: JSON_HEADERS });
    const [row] = await getDb().select({ id: transactions.id }).from(transactions).where(eq(transactions.secureId, pix.body.data.secureId));
    const paid = await call("PUT", `/api/v1/transactions/${row.id}/test`, { auth: a.secretKey, body: { status: "paid" } });
    expect(paid.status, paid.text).toBe(200);
    expect((await pending(l2.secureId, KEY)).body.data).toBeNull();
  });

  it("is asked for from the checkout page only (another site's Origin is refused)", async () => {
    const l = await link();
    const res = await call("POST", `/checkout/${l.secureId}/pending`, { body: { attempt: KEY }, headers: { ...JSON_HEADERS, origin: "https://evil.example" } });
    expect(res.status).toBe(403);
  });
});
