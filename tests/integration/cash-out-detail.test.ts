import { beforeAll, describe, expect, it } from "vitest";
import { createTestAccount } from "@/tests/helpers/accounts";
import { cashOut, paidPix } from "@/tests/helpers/money";
import { findAccountById, type CreatedAccount } from "@/lib/services/accounts/accounts";
import { getCashOutDetail } from "@/lib/services/cash-outs/cash-out-detail";
import { listCashOutWebhooks } from "@/lib/services/webhooks/list-transaction-webhooks";
import type { Account, ServiceContext } from "@/lib/services/context";

const ctxOf = (a: Account, now = new Date()): ServiceContext => ({ account: a, actor: "dashboard:1", requestId: "test", now });

let created: CreatedAccount;
let account: Account;
let stranger: Account;

beforeAll(async () => {
  created = await createTestAccount("Saque Detalhe");
  account = (await findAccountById(created.companyId))!;
  stranger = (await findAccountById((await createTestAccount("Outra Loja")).companyId))!;
  await paidPix(created, 20_000);
});

describe("the dashboard's cash-out detail", () => {
  it("lists the cash-out's notifications as GET /api/v1/cashOut/{id}/webhooks does, with what may be done with each", async () => {
    const res = await cashOut(created, { amount: 5_000, pixKey: "financeiro@example.com", postbackUrl: "http://127.0.0.1:9/saques" });
    expect(res.status, res.text).toBe(201);
    const id = res.body.data.id as number;

    const detail = await getCashOutDetail(ctxOf(account), String(id));
    expect(detail.cashOut).toMatchObject({ id, amount: 5_000, postbackUrl: "http://127.0.0.1:9/saques" });
    expect(detail.webhooks.length).toBeGreaterThanOrEqual(1);
    expect(detail.webhooks.map((e) => e.id)).toEqual((await listCashOutWebhooks(ctxOf(account), id)).map((e) => e.id));
    const first = detail.webhooks[0];
    expect(first).toMatchObject({ type: "cash_out", cashOutId: id, status: "pending", url: "http://127.0.0.1:9/saques", deliveryState: "pending" });
    // Not yet attempted (no background jobs in tests): it holds the others, so it may be skipped, and it is due.
    expect(first.skippable).toBe(true);
    expect(first.nextAttemptDue).toBe(true);
  });

  it("reads another account's cash-out as missing (not found), and a malformed id too", async () => {
    const res = await cashOut(created, { amount: 1_000, pixKey: "financeiro@example.com" });
    expect(res.status, res.text).toBe(201);
    await expect(getCashOutDetail(ctxOf(stranger), res.body.data.id)).rejects.toMatchObject({ code: "not_found" });
    await expect(getCashOutDetail(ctxOf(account), "abc")).rejects.toMatchObject({ code: "not_found" });
    // Without a postbackUrl the notification is kept, with nothing to deliver to.
    const own = await getCashOutDetail(ctxOf(account), res.body.data.id);
    expect(own.cashOut.postbackUrl).toBeNull();
    expect(own.webhooks.every((e) => e.url === null && !e.skippable)).toBe(true);
  });
});
