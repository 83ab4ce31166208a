// A short PSP delay, set before the first getEnv() of this file's process.
process.env.SANDBOX_PSP_DELAY_MS = "100";

import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { startBackgroundJobs } from "@/lib/jobs";
import { executeTransaction } from "@/lib/executor/execute";
import { call } from "../helpers/app";
import { createTestAccount } from "../helpers/accounts";
import { insertTransaction } from "../helpers/fixtures";
import { balanceOf, cashOut, expectBooksAgree, paidPix } from "../helpers/money";

async function until<T>(read: () => Promise<T>, done: (v: T) => boolean, ms = 15_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await read();
    if (done(v) || Date.now() > deadline) return v;
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe("background jobs (as the app and `npm run worker` start them)", () => {
  it("complete cash-outs after SANDBOX_PSP_DELAY_MS and settle card funds whose date has come, with nobody calling them", async () => {
    const m = await createTestAccount("Loja Automática");
    await paidPix(m, 10_000); // available R$ 99,01
    // A card sale of R$ 100,00 (fee R$ 4,38) whose settlement date has passed.
    const now = new Date();
    const card = await insertTransaction(m.companyId, {
      paymentMethod: "credit_card",
      status: "paid",
      amount: 10_000,
      paidAmount: 10_000,
      feeFixed: 39,
      feeEstimated: 438,
      paidAt: now,
      settleAt: new Date(now.getTime() - 1000),
    });
    await getDb().transaction((tx) => executeTransaction(tx, { actor: "api", now }, { cause: "created", transaction: card, facts: {} }));
    expect(await balanceOf(m)).toMatchObject({ available: 9_901, waitingFunds: 9_562 });

    const stop = startBackgroundJobs({ force: true });
    try {
      const res = await cashOut(m, { amount: 5_000, pixKey: "fulano@banco.com.br" });
      expect(res.status).toBe(201);
      const failing = await cashOut(m, { amount: 1_000, pixKey: "fail@arara.dev" });
      const read = (id: number) => async () => (await call("GET", `/api/v1/cashOut/${id}`, { auth: m.secretKey })).body.data;
      const done = await until(read(res.body.data.id), (c) => c.status === "completed");
      expect(done.status).toBe("completed");
      expect(Date.parse(done.completedAt) - Date.parse(done.createdAt)).toBeGreaterThanOrEqual(100);
      expect((await until(read(failing.body.data.id), (c) => c.status === "failed")).status).toBe("failed");
      const settled = await until(() => balanceOf(m), (b) => b.waitingFunds === 0);
      // 9_901 - 5_000 sent + 9_562 settled; the failed R$ 10,00 came back.
      expect(settled).toEqual({ available: 14_463, availableAtPsp: 0, waitingFunds: 0, reserved: 0, total: 14_463 });
    } finally {
      await stop();
    }
    await expectBooksAgree(m);
  });
});
