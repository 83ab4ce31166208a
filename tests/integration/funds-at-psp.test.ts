/**
 * Custody: PIX received through the merchant's own PSP (API Pix) lands in the merchant's PSP account,
 * never with Arara. The books keep it apart (`availableAtPsp`, ledger account available_at_psp) from
 * what Arara holds (`available`), so that:
 *
 * - money at the merchant's PSP is never paid out by Arara's payouts, even after the account switches
 *   its PIX back to the sandbox (found by the money audit: it was, through the sandbox payout);
 * - money Arara holds (a boleto, a card sale) is never sent from the merchant's own Efí account: a
 *   cash-out says which money it sends (`source`: arara or psp; default psp for an account receiving
 *   PIX at its PSP), and each source is paid by its own holder;
 * - books written before the two were split are moved by migration 0021, and ledger:check holds.
 *
 * Against the local PSP (tests/helpers/api-pix-psp: API Pix and Efí's Pix Envio, real mutual TLS).
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { and, eq, inArray, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb, type Tx } from "@/lib/db/client";
import { postJournal } from "@/lib/ledger/post";
import { requestCashOut } from "@/lib/services/cash-outs/request-cash-out";
import { ServiceError } from "@/lib/services/errors";
import { cashOuts, companies, ledgerAccounts, ledgerJournals, ledgerPostings } from "@/lib/db/schema";
import { checkLedger } from "@/lib/ledger/check";
import { advanceDueCashOuts } from "@/lib/services/cash-outs/advance-cash-outs";
import { systemContext, type ServiceContext } from "@/lib/services/context";
import { savePspSettings } from "@/lib/services/psp/api-pix-settings";
import { statementCsv } from "@/lib/services/accounts/statement-csv";
import { StatementQuery } from "@/lib/schemas/money";
import type { CreatedAccount } from "@/lib/services/accounts/accounts";
import { call } from "../helpers/app";
import { balanceOf, cashOut, expectBooksAgree, statementOf } from "../helpers/money";
import { efiAccount, localPspForFile, paidPixAtPsp, pspConfiguredAccount } from "../helpers/psp-accounts";

const RECEIVING_KEY = "recebe@loja.example";
const PAYER_KEY = "envia@loja.example";
const local = localPspForFile([RECEIVING_KEY, PAYER_KEY]);

const later = (ms: number) => new Date(Date.now() + ms);
const rowOf = async (a: CreatedAccount) => (await getDb().select().from(companies).where(eq(companies.id, a.companyId)))[0];

/** A boleto of `amount` paid through the sandbox: money Arara holds (available), net of its fee. */
async function paidBoleto(a: CreatedAccount, amount: number) {
  const r = await call("POST", "/api/v1/transactions", {
    auth: a.secretKey,
    body: {
      paymentMethod: "boleto",
      amount,
      customer: { name: "Maria Silva", email: "maria@example.com", document: { type: "cpf", number: "11144477735" } },
      items: [{ title: "Mesa", unitPrice: amount, quantity: 1, tangible: true }],
    },
  });
  expect(r.status, r.text).toBe(201);
  const paid = await call("PUT", `/api/v1/transactions/${r.body.data.id}/test`, { auth: a.secretKey, body: { status: "paid" } });
  expect(paid.status, paid.text).toBe(200);
  return paid.body.data as { id: number; paidAmount: number };
}

describe("PIX received through the merchant's own PSP", () => {
  it("lands in availableAtPsp, never in available, and the statement shows it on that account", async () => {
    const a = await pspConfiguredAccount("Loja Custódia", local.psp, local.pki, RECEIVING_KEY);
    const { id } = await paidPixAtPsp(a, local.psp, 10_000);
    const balance = await expectBooksAgree(a);
    expect(balance).toEqual({ available: 0, availableAtPsp: 9_901, waitingFunds: 0, reserved: 0, total: 9_901 });
    const entries = await statementOf(a);
    expect(entries.map((e) => [e.type, e.account, e.amount, e.transactionId])).toEqual([
      ["fee", "available_at_psp", -99, id],
      ["payment", "available_at_psp", 10_000, id],
    ]);
    // The dashboard's CSV names that balance in Portuguese.
    const session = { ...systemContext(await rowOf(a)), now: new Date() };
    const { csv } = await statementCsv(session, StatementQuery.parse({ limit: "100" }));
    const lines = csv.trimEnd().split("\r\n").slice(1);
    expect(lines).toHaveLength(2);
    for (const line of lines) expect(line.split(";")[3]).toBe("No seu PSP");
  });

  it("switched back to the sandbox, its money stays recorded at the PSP and Arara's payouts cannot send it", async () => {
    const a = await pspConfiguredAccount("Loja Volta ao Sandbox", local.psp, local.pki, RECEIVING_KEY);
    await paidPixAtPsp(a, local.psp, 1_000);
    // Without cash-outs from the PSP set up, the PSP's money cannot leave through Arara.
    const before = await cashOut(a, { amount: 100, pixKey: "a@b.co" });
    expect(before.status, before.text).toBe(422);
    expect(before.body.message).toContain("payout_not_configured");

    await savePspSettings(systemContext(await rowOf(a)), { processor: "sandbox" });
    const res = await cashOut(a, { amount: 514, pixKey: "+55 11 98765-4321" });
    expect(res.status, res.text).toBe(422);
    expect(res.body).toMatchObject({ code: "insufficient_balance" });
    expect(res.body.message).toContain("The available balance does not cover");
    const asked = await cashOut(a, { amount: 514, pixKey: "+55 11 98765-4321", source: "psp" });
    expect(asked.status, asked.text).toBe(422);
    expect(asked.body.message).toContain("payout_not_configured");
    expect(await getDb().select().from(cashOuts).where(eq(cashOuts.companyId, a.companyId))).toEqual([]);
    expect(await expectBooksAgree(a)).toEqual({ available: 0, availableAtPsp: 990, waitingFunds: 0, reserved: 0, total: 990 });
  });

  it("a cash-out names the money it sends: Arara's (a boleto) by Arara's payouts, the PSP's by Efí from the merchant's account", async () => {
    const { account: a } = await efiAccount("Loja Duas Origens", local, RECEIVING_KEY, { payoutEfi: true, payoutPayerKey: PAYER_KEY });
    await paidBoleto(a, 5_000);
    const start = await balanceOf(a);
    expect(start).toMatchObject({ available: 5_000 - 349, availableAtPsp: 19_802 });

    // Default for an account receiving PIX at its PSP: the PSP's money, through Efí.
    const fromPsp = await cashOut(a, { amount: 1_000, pixKey: "maria@example.com" });
    expect(fromPsp.status, fromPsp.text).toBe(201);
    // Arara's money, by Arara's payouts (the sandbox): never from the merchant's Efí account.
    const fromArara = await cashOut(a, { amount: 4_000, pixKey: "maria@example.com", source: "arara" });
    expect(fromArara.status, fromArara.text).toBe(201);
    const [efi, sandbox] = await getDb().select().from(cashOuts).where(inArray(cashOuts.id, [fromPsp.body.data.id, fromArara.body.data.id])).orderBy(cashOuts.id);
    expect(efi.processor).toBe("efi-pix-envio");
    expect(sandbox.processor).toBe("sandbox");
    // The resource says which money each sends.
    expect([fromPsp.body.data.source, fromArara.body.data.source]).toEqual(["psp", "arara"]);
    expect(await balanceOf(a)).toMatchObject({ available: 5_000 - 349 - 4_000, availableAtPsp: 19_802 - 1_000, reserved: 5_000 });

    // More than Arara holds, from Arara: refused, though the PSP's side could cover it.
    const tooMuch = await cashOut(a, { amount: 1_000, pixKey: "maria@example.com", source: "arara" });
    expect(tooMuch.status, tooMuch.text).toBe(422);
    expect(tooMuch.body.message).toContain("The available balance does not cover");
    // More than the PSP's side holds, from the PSP: refused, though nothing else is asked of it.
    const tooMuchAtPsp = await cashOut(a, { amount: 19_000, pixKey: "maria@example.com" });
    expect(tooMuchAtPsp.status, tooMuchAtPsp.text).toBe(422);
    expect(tooMuchAtPsp.body.message).toContain("The balance at your PSP (availableAtPsp) does not cover");

    await advanceDueCashOuts({ now: later(0) });
    await advanceDueCashOuts({ now: later(60_000) });
    const statusOf = async (id: number) => (await getDb().select().from(cashOuts).where(eq(cashOuts.id, id)))[0].status;
    expect(await statusOf(sandbox.id)).toBe("completed");
    expect(await statusOf(efi.id)).toBe("processing"); // sent from the merchant's Efí key, EM_PROCESSAMENTO there
    expect(local.psp.efi.putRequests.map((r) => r.status)).toContain(201);
    expect(await expectBooksAgree(a)).toMatchObject({ available: 5_000 - 349 - 4_000, availableAtPsp: 19_802 - 1_000, reserved: 1_000 });
  });

  it("a source that is neither is a 400; null is the default", async () => {
    const { account: a } = await efiAccount("Loja Origem Errada", local, RECEIVING_KEY, { payoutEfi: true, payoutPayerKey: PAYER_KEY });
    for (const source of ["bank", "PSP", ""]) {
      const res = await cashOut(a, { amount: 100, pixKey: "maria@example.com", source });
      expect(res.status, res.text).toBe(400);
      expect(res.body.message).toContain("source must be arara or psp");
    }
    // null is the field left out: the default, here the PSP.
    const res = await cashOut(a, { amount: 100, pixKey: "maria@example.com", source: null });
    expect(res.status, res.text).toBe(201);
    expect(res.body.data.source).toBe("psp");
  });
});

/**
 * Runs `body` on the books of `a` as the code before the split wrote them (one pool: the PSP's postings
 * on available, the running balances and the balances as they were then), in a transaction rolled back
 * at the end.
 */
async function onPooledBooks(a: CreatedAccount, body: (tx: Tx) => Promise<void>) {
  const accounts = await getDb().select().from(ledgerAccounts).where(eq(ledgerAccounts.companyId, a.companyId));
  const idOf = (kind: string) => accounts.find((x) => x.kind === kind)!.id;
  const rolledBack = new Error("rolled back");
  await getDb()
    .transaction(async (tx) => {
      await tx.execute(sql`update ${ledgerPostings} set account_id = ${idOf("available")} where account_id = ${idOf("available_at_psp")}`);
      await repool(tx, idOf("available"));
      await tx.execute(sql`update ${ledgerAccounts} set balance = 0 where id = ${idOf("available_at_psp")}`);
      await body(tx);
      throw rolledBack;
    })
    .catch((e) => {
      if (e !== rolledBack) throw e;
    });
}

/** The account's running balances and balance recomputed from its postings, in id order. */
async function repool(tx: Tx, accountId: number) {
  await tx.execute(sql`update ${ledgerPostings} p set balance_after = r.running
                         from (select id, sum(amount) over (order by id) as running from ${ledgerPostings} where account_id = ${accountId}) r
                        where p.id = r.id`);
  await tx.execute(sql`update ${ledgerAccounts} set balance = (select coalesce(sum(amount), 0) from ${ledgerPostings} where account_id = ${accountId}) where id = ${accountId}`);
}

/** The migration's data statements (the constraint statements before them are the schema's). */
async function migrateCustody(tx: Tx) {
  const file = readFileSync(path.join(process.cwd(), "drizzle/0021_funds_at_psp.sql"), "utf8");
  const statements = file.split("--> statement-breakpoint").map((x) => x.trim()).filter((x) => x && !x.startsWith("ALTER TABLE"));
  expect(statements).toHaveLength(7);
  for (const statement of statements) await tx.execute(sql.raw(statement));
}

async function fundsOf(tx: Tx, a: CreatedAccount) {
  const rows = await tx.select().from(ledgerAccounts).where(and(eq(ledgerAccounts.companyId, a.companyId), inArray(ledgerAccounts.kind, ["available", "available_at_psp"])));
  return Object.fromEntries(rows.map((r) => [r.kind, Number(r.balance)]));
}

const MIX = "money held at the merchant's PSP and money Arara holds must not mix";

describe("migration 0021 on books written before the split (one pool)", () => {
  it("moves the PSP's share to available_at_psp in one custody_split journal, history untouched, and ledger:check holds", async () => {
    const a = await pspConfiguredAccount("Loja Livros Antigos", local.psp, local.pki, RECEIVING_KEY);
    await paidBoleto(a, 5_000);
    await paidPixAtPsp(a, local.psp, 10_000);
    const after = await expectBooksAgree(a);

    await onPooledBooks(a, async (tx) => {
      expect((await checkLedger(tx)).violations.some((v) => v.includes(MIX))).toBe(true);
      const postingsBefore = await tx.select().from(ledgerPostings).orderBy(ledgerPostings.id);
      await migrateCustody(tx);
      expect((await checkLedger(tx)).violations).toEqual([]);
      expect(await fundsOf(tx, a)).toEqual({ available: after.available, available_at_psp: after.availableAtPsp });
      const split = await tx.select().from(ledgerJournals).where(and(eq(ledgerJournals.companyId, a.companyId), eq(ledgerJournals.kind, "custody_split")));
      expect(split).toHaveLength(1);
      // History as it was written: every earlier posting unchanged, the split's two appended.
      const postingsAfter = await tx.select().from(ledgerPostings).orderBy(ledgerPostings.id);
      expect(postingsAfter.slice(0, postingsBefore.length)).toEqual(postingsBefore);
      expect(postingsAfter.slice(postingsBefore.length).map((p) => [p.journalId, p.amount])).toEqual([
        [split[0].id, -after.availableAtPsp],
        [split[0].id, after.availableAtPsp],
      ]);
    });
    expect(await expectBooksAgree(a)).toEqual(after);
  });

  it("where the pool let the sandbox pay out PSP money, the PSP's share is what the pool still has: neither side below zero, and Arara may pay out nothing more than before", async () => {
    const a = await pspConfiguredAccount("Loja Pool Antigo", local.psp, local.pki, RECEIVING_KEY);
    await paidBoleto(a, 5_000); // Arara holds 4.651
    await paidPixAtPsp(a, local.psp, 10_000); // 9.901 at the PSP
    const res = await cashOut(a, { amount: 4_000, pixKey: "maria@example.com", source: "arara" });
    expect(res.status, res.text).toBe(201);
    await advanceDueCashOuts({ now: later(0) });
    await advanceDueCashOuts({ now: later(60_000) });
    const id: number = res.body.data.id;
    const ctx = { ...systemContext(await rowOf(a)), now: new Date() };

    await onPooledBooks(a, async (tx) => {
      // As the old code could: that sandbox cash-out was 10.000, paid from the one pool (6.000 of it the PSP's).
      await tx.update(cashOuts).set({ amount: 10_000 }).where(eq(cashOuts.id, id));
      await postJournal(tx as never, {
        companyId: a.companyId,
        cashOutId: id,
        kind: "cash_out",
        description: "the rest of the cash-out, from the pool",
        now: new Date(),
        lines: [
          { owner: "merchant", account: "available", entryType: "cash_out", amount: -6_000 },
          { owner: "platform", account: "psp_clearing", entryType: "cash_out", amount: 6_000 },
        ],
      });
      const pool = 4_651 + 9_901 - 10_000;
      expect((await fundsOf(tx, a)).available).toBe(pool);

      await migrateCustody(tx);
      expect((await checkLedger(tx)).violations).toEqual([]);
      // The PSP's postings sum to 9.901, more than the pool's 4.552: the PSP side gets the pool, Arara's is 0.
      expect(await fundsOf(tx, a)).toEqual({ available: 0, available_at_psp: pool });
      expect(await cashOutCodeIn(tx, ctx, "arara")).toBe("insufficient_balance");
    });
  });
});

/** A cash-out of 1 centavo from `source` on the rolled-back books: its refusal's code, or "ok". */
async function cashOutCodeIn(tx: Tx, ctx: ServiceContext, source: "arara" | "psp"): Promise<string> {
  try {
    await requestCashOut(ctx, { amount: 1, pixKey: "maria@example.com", source }, tx);
    return "ok";
  } catch (e) {
    if (e instanceof ServiceError) return e.code;
    throw e;
  }
}
