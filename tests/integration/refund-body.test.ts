/**
 * A refund is the one verb where a field left out moves money ("refund all that is still
 * refundable"), so a body that only looks empty must not be read as one: `amount: null` (a client's
 * None, nil or an unset variable serialized) and a misspelt amount (`amont`, `valor`) are refused with
 * 400 and nothing refunded. A body that is really empty, or carries only the store's own notes
 * (`reason`, ...), still refunds the rest; an unknown field beside a real `amount` is ignored. Both
 * dialects.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { CreatedAccount } from "@/lib/services/accounts/accounts";
import { call } from "../helpers/app";
import { createTestAccount } from "../helpers/accounts";
import { paidPix } from "../helpers/money";

let a: CreatedAccount;
beforeAll(async () => {
  a = await createTestAccount("Loja Reembolso Corpo");
});

const refund = (id: number, body: unknown, prefix = "/api/v1") => call("POST", `${prefix}/transactions/${id}/refund`, { auth: a.secretKey, body });
const refundedOf = async (id: number) => (await call("GET", `/api/v1/transactions/${id}`, { auth: a.secretKey })).body.data.refundedAmount as number;

describe("a refund body that only looks empty", () => {
  for (const prefix of ["/api/v1", "/v1"]) {
    it(`${prefix}: amount null is refused, nothing refunded`, async () => {
      const t = await paidPix(a, 3_000);
      const res = await refund(t.id, { amount: null }, prefix);
      expect(res.status, res.text).toBe(400);
      expect(res.body).toMatchObject({ success: false, status: 400, code: "validation_error" });
      expect(res.body.message).toContain("amount must not be null: leave amount out to refund all that is still refundable");
      expect(await refundedOf(t.id)).toBe(0);
    });

    it(`${prefix}: a misspelt amount is refused, naming the field, nothing refunded`, async () => {
      const t = await paidPix(a, 3_000);
      for (const body of [{ amont: 500 }, { valor: 500 }, { amount_cents: 500 }]) {
        const res = await refund(t.id, body, prefix);
        expect(res.status, res.text).toBe(400);
        expect(res.body.message).toContain(`${Object.keys(body)[0]} is not a field of a refund`);
      }
      expect(await refundedOf(t.id)).toBe(0);
    });
  }

  it("an empty body, or only the store's notes, still refunds all that is left", async () => {
    const t1 = await paidPix(a, 3_000);
    const r1 = await refund(t1.id, {});
    expect(r1.status, r1.text).toBe(200);
    expect(r1.body.data).toMatchObject({ status: "refunded", refundedAmount: 3_000 });
    const t2 = await paidPix(a, 3_000);
    const r2 = await refund(t2.id, { reason: "Cliente desistiu da compra" }, "/v1");
    expect(r2.status, r2.text).toBe(200);
    expect(r2.body).toMatchObject({ status: "refunded", refundedAmount: 3_000 });
  });

  it("an unknown field beside a real amount is ignored: the partial refund is made", async () => {
    const t = await paidPix(a, 3_000);
    const res = await refund(t.id, { amount: "500", motivo: "troca" });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data).toMatchObject({ status: "paid", refundedAmount: 500 });
  });
});
