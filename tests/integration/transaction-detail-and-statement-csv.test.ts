import { beforeAll, describe, expect, it } from "vitest";
import { createTestAccount } from "@/tests/helpers/accounts";
import { insertTransaction } from "@/tests/helpers/fixtures";
import { findAccountById } from "@/lib/services/accounts/accounts";
import { statementCsv } from "@/lib/services/accounts/statement-csv";
import { getTransactionDetail } from "@/lib/services/transactions/transaction-detail";
import { refundTransaction } from "@/lib/services/transactions/refund-transaction";
import { sandboxMove } from "@/lib/services/transactions/sandbox-move";
import { StatementQuery } from "@/lib/schemas/money";
import type { Account, ServiceContext } from "@/lib/services/context";

let account: Account;
const ctxOf = (a: Account, now = new Date()): ServiceContext => ({ account: a, actor: "dashboard:1", requestId: "test", now });

beforeAll(async () => {
  account = (await findAccountById((await createTestAccount("Detalhe")).companyId))!;
});

describe("the dashboard's transaction detail", () => {
  it("offers paying a pending PIX, then refunds up to what is left once paid", async () => {
    const t = await insertTransaction(account.id, { amount: 5000, expiresAt: new Date(Date.now() + 3_600_000) });
    const pending = await getTransactionDetail(ctxOf(account), t.id);
    expect(pending.sandboxMoves).toContain("paid");
    expect(pending.refundable).toBe(0);
    expect(pending.paid).toBe(0);
    expect(pending.expired).toBe(false);

    await sandboxMove(ctxOf(account), t.id, "paid");
    await refundTransaction(ctxOf(account), t.id, { amount: 1200 });
    const paid = await getTransactionDetail(ctxOf(account), t.id);
    expect(paid.paid).toBe(5000);
    expect(paid.refundable).toBe(3800);
    expect(paid.sandboxMoves).not.toContain("refunded");
    expect(paid.timeline.find((e) => e.cause === "partial_refund")?.showAmount).toBe(true);
  });

  it("calls a pending PIX past its expiry expired and no longer offers paying it", async () => {
    const t = await insertTransaction(account.id, { expiresAt: new Date(Date.now() - 60_000) });
    const d = await getTransactionDetail(ctxOf(account), t.id);
    expect(d.expired).toBe(true);
    expect(d.sandboxMoves).not.toContain("paid");
  });
});

describe("the statement CSV export", () => {
  it("writes the header and one line per entry, amounts with a decimal comma, named by the day", async () => {
    const { filename, csv } = await statementCsv(ctxOf(account, new Date("2026-11-23T15:00:00Z")), StatementQuery.parse({ limit: "100" }));
    expect(filename).toBe("extrato-arara-2026-11-23.csv");
    expect(csv.startsWith("\uFEFFdata;tipo;descricao;saldo;valor;saldo_apos;valor_centavos;saldo_apos_centavos;transacao;saque;lancamento\r\n")).toBe(true);
    const lines = csv.trimEnd().split("\r\n").slice(1);
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.some((l) => l.includes(";Reembolso;Reembolso da transação #") && l.includes(";-12,00;"))).toBe(true);
  });
});
