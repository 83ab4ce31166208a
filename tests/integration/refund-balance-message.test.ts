/**
 * A refund the available balance does not cover is refused (422 insufficient_balance, the money
 * rule unchanged) with a message that names the figures: what it needs from available, what
 * available has, and, for a card sale not yet settled, the part its own funds waiting to settle pay
 * and until when they wait. The dashboard's refund form says the same in Portuguese.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { CreatedAccount } from "@/lib/services/accounts/accounts";
import { findAccountById } from "@/lib/services/accounts/accounts";
import { systemContext } from "@/lib/services/context";
import { refundTransaction } from "@/lib/services/transactions/refund-transaction";
import { errorState } from "@/lib/auth/action";
import { call } from "../helpers/app";
import { createTestAccount } from "../helpers/accounts";
import { baseBody, cardBody } from "../helpers/cash-in";

// R$ 50,00 by card on the default plan: fee 3.99% (200) + R$ 0,39 = 239, net 4.761 waiting 30 days.
const AMOUNT = 5_000;
const order = { amount: AMOUNT, items: [{ title: "Curso", unitPrice: AMOUNT, quantity: 1, tangible: false }] };

let a: CreatedAccount;
beforeAll(async () => {
  a = await createTestAccount("Loja Reembolsos");
});

async function paidCard(acc = a) {
  const res = await call("POST", "/api/v1/transactions", { auth: acc.secretKey, body: await cardBody(acc.publicKey, "4242424242424242", order) });
  expect(res.body.data.status).toBe("paid");
  return res.body.data as { id: number; paidAt: string };
}

describe("a refund the available balance does not cover", () => {
  it("a card sale minutes old: names what it needs from available, what available has, and its own funds waiting until they settle", async () => {
    const t = await paidCard();
    const settleOn = new Date(Date.parse(t.paidAt) + 30 * 86_400_000).toISOString().slice(0, 10);
    const res = await call("POST", `/api/v1/transactions/${t.id}/refund`, { auth: a.secretKey, body: {} });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe("insufficient_balance");
    const m: string = res.body.message;
    expect(m).toContain("R$ 50,00"); // the refund
    expect(m).toContain("needs R$ 2,39 from the available balance, which has R$ 0,00");
    expect(m).toContain("R$ 47,61"); // the sale's own funds, used first
    expect(m).toContain("waitingFunds");
    expect(m).toContain(settleOn);
    expect(res.body.errors).toEqual([{ field: "amount", message: expect.stringContaining("R$ 2,39") }]);
    // Nothing moved.
    const read = await call("GET", `/api/v1/transactions/${t.id}`, { auth: a.secretKey });
    expect(read.body.data).toMatchObject({ status: "paid", refundedAmount: 0 });
  });

  it("a partial refund the sale's own waiting funds cover is made, as before", async () => {
    const t = await paidCard();
    const res = await call("POST", `/api/v1/transactions/${t.id}/refund`, { auth: a.secretKey, body: { amount: 1_000 } });
    expect(res.status).toBe(200);
    expect(res.body.data.refundedAmount).toBe(1_000);
  });

  it("a PIX larger than available, while card sales wait to settle: says card sales wait in waitingFunds", async () => {
    const b = await createTestAccount("Loja PIX");
    await paidCard(b);
    const pix = await call("POST", "/api/v1/transactions", { auth: b.secretKey, body: baseBody({ amount: 1_000, items: [{ title: "x", unitPrice: 1_000, quantity: 1, tangible: false }] }) });
    expect((await call("PUT", `/api/v1/transactions/${pix.body.data.id}/test`, { auth: b.secretKey, body: { status: "paid" } })).status).toBe(200);
    // Available: 1.000 - 0.99% (10) = 990; the refund of 1.000 needs all of it from available.
    const res = await call("POST", `/api/v1/transactions/${pix.body.data.id}/refund`, { auth: b.secretKey, body: {} });
    expect(res.status).toBe(422);
    expect(res.body.message).toContain("needs R$ 10,00 from the available balance, which has R$ 9,90");
    expect(res.body.message).toContain("The fee on this sale (R$ 0,10) is kept on refunds, so refunding all of it needs other available money.");
    expect(res.body.message).toContain("Card sales wait in waitingFunds (R$ 47,61 now) until they settle");
  });

  it("the dashboard's refund form says it in Portuguese, with the same figures", async () => {
    const t = await paidCard();
    const account = await findAccountById(a.companyId);
    const err = await refundTransaction({ ...systemContext(account!), actor: "dashboard:test" }, t.id, {}).catch((e: unknown) => e);
    const state = errorState(err);
    expect(state.status).toBe("error");
    const m = state.status === "error" ? state.message : "";
    expect(m).toContain("O saldo disponível não cobre este reembolso de R$ 50,00");
    expect(m).toContain("precisa de R$ 2,39 do saldo disponível, que tem R$ 0,00");
    expect(m).toContain("R$ 47,61");
    expect(m).toMatch(/\d{2}\/\d{2}\/\d{4}/);
  });
});
