/**
 * The transactions page's CSV export (app/dashboard/transactions/export): the transactions the page's
 * filters select, every page of them through the keyset cursor, this account's only, in the statement
 * export's conventions (BOM, ";", decimal comma plus centavo columns, formulas neutralised by csvField),
 * cut at a bound with a last line that says so.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { createTestAccount } from "@/tests/helpers/accounts";
import { insertTransaction } from "@/tests/helpers/fixtures";
import { findAccountById } from "@/lib/services/accounts/accounts";
import { sandboxMove } from "@/lib/services/transactions/sandbox-move";
import { refundTransaction } from "@/lib/services/transactions/refund-transaction";
import { transactionFilters, transactionQuery } from "@/components/dashboard/transaction-filters";
import { TRANSACTIONS_CSV_HEADER, transactionsCsvFilename, transactionsCsvStream } from "@/lib/services/transactions/transactions-csv";
import type { Account, ServiceContext } from "@/lib/services/context";

let mine: Account;
let other: Account;
const ctxOf = (a: Account, now = new Date()): ServiceContext => ({ account: a, actor: "dashboard:1", requestId: "test", now });

async function exportOf(a: Account, params: Record<string, string>, max?: number): Promise<string[]> {
  const tq = transactionQuery(transactionFilters((n) => params[n]), { limit: 100 });
  expect(tq.invalid).toEqual([]);
  // The bytes as a spreadsheet reads them (Response.text() would drop the BOM).
  const text = new TextDecoder("utf-8", { ignoreBOM: true }).decode(await new Response(await transactionsCsvStream(ctxOf(a), tq, max)).arrayBuffer());
  expect(text.startsWith("\uFEFF")).toBe(true);
  const lines = text.slice(1).split("\r\n");
  expect(lines.pop()).toBe("");
  return lines;
}

const customer = (name: string) => ({
  name,
  email: "cliente@example.com",
  phone: "11987654350",
  externalRef: null,
  document: { type: "cpf" as const, number: "11144477735" },
});

let pixPaid: number;
let boleto: number;

beforeAll(async () => {
  mine = (await findAccountById((await createTestAccount("Exporta")).companyId))!;
  other = (await findAccountById((await createTestAccount("Outra Conta")).companyId))!;
  // Another account's charges, with a name found nowhere else, by the same method and days.
  for (let i = 0; i < 3; i++) await insertTransaction(other.id, { paymentMethod: "boleto", amount: 777, customer: customer(`Cliente Alheio ${i}`) });

  // 120 PIX (more than one page of the cursor at limit 100 would hold at most: every page is read).
  for (let i = 0; i < 120; i++) await insertTransaction(mine.id, { amount: 1000 + i, customer: customer(`Pix ${i}`) });
  const t = await insertTransaction(mine.id, {
    amount: 10_000,
    feeEstimated: 99,
    externalRef: "-pedido 42",
    customer: customer('=HYPERLINK("x")'),
    customerEmail: "cliente@example.com",
  });
  pixPaid = t.id;
  await sandboxMove(ctxOf(mine), t.id, "paid");
  await refundTransaction(ctxOf(mine), t.id, { amount: 2_500 });
  boleto = (await insertTransaction(mine.id, { paymentMethod: "boleto", amount: 5_000, customer: customer("Boleto Único") })).id;
});

describe("the transactions CSV export", () => {
  it("writes every transaction the filters select, all pages, this account's only", async () => {
    const lines = await exportOf(mine, { paymentMethod: "pix" });
    expect(lines[0]).toBe(TRANSACTIONS_CSV_HEADER.join(";"));
    expect(lines[0]).toBe(
      "id;criada_em;status;meio;valor;valor_pago;tarifa;liquido;parcelas;cliente;email;documento;telefone;referencia_externa;pago_em;reembolsado;valor_centavos;valor_pago_centavos;tarifa_centavos;liquido_centavos;reembolsado_centavos",
    );
    const rows = lines.slice(1).map((l) => l.split(";"));
    expect(rows).toHaveLength(121);
    expect(rows.every((r) => r[3] === "PIX")).toBe(true);
    expect(rows.some((r) => r[0] === String(boleto))).toBe(false);
    expect(lines.join("\n")).not.toContain("Alheio");
    // Newest first, each once.
    expect(new Set(rows.map((r) => r[0])).size).toBe(121);
    expect(rows[0][0]).toBe(String(pixPaid));
  });

  it("neutralises formulas and writes money with a decimal comma and in centavos", async () => {
    const lines = await exportOf(mine, { q: "HYPERLINK" });
    expect(lines).toHaveLength(2);
    // csvField quotes the field (it has quotes) after prefixing the apostrophe: no formula runs.
    expect(lines[1]).toContain(`;"'=HYPERLINK(""x"")";`);
    expect(lines[1]).not.toMatch(/;=HYPERLINK/);
    const r = lines[1].split(";");
    expect(r[0]).toBe(String(pixPaid));
    expect(r[1]).toMatch(/^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}:\d{2}$/);
    expect(r[2]).toBe("Pago");
    expect(r.slice(4, 9)).toEqual(["100,00", "100,00", "0,99", "99,01", "1"]);
    expect(r[10]).toBe("cliente@example.com");
    expect(r[11]).toBe("111.444.777-35");
    expect(r[12]).toBe("(11) 98765-4350");
    expect(r[13]).toBe("'-pedido 42");
    expect(r[14]).toMatch(/^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}:\d{2}$/);
    expect(r.slice(-6)).toEqual(["25,00", "10000", "10000", "99", "9901", "2500"]);
  });

  it("says Portuguese statuses, no fee for a charge not paid, and follows the status filter", async () => {
    const lines = await exportOf(mine, { status: "pending", paymentMethod: "boleto" });
    expect(lines).toHaveLength(2);
    const r = lines[1].split(";");
    expect(r.slice(0, 8)).toEqual([String(boleto), r[1], "Pendente", "Boleto", "50,00", "0,00", "", ""]);
    expect(await exportOf(other, { q: "Boleto Único" })).toHaveLength(1);
  });

  it("is cut at its bound, newest first, and its last line says so", async () => {
    const lines = await exportOf(mine, {}, 50);
    expect(lines).toHaveLength(1 + 50 + 1);
    expect(lines.at(-1)).toMatch(/^"?Exportação limitada às 50 transações mais recentes; filtre por período/);
    const all = await exportOf(mine, {});
    expect(all).toHaveLength(1 + 122);
    expect(all.at(-1)).not.toContain("Exportação limitada");
    expect(lines.slice(1, 51)).toEqual(all.slice(1, 51));
  });

  it("refuses a search holding a NUL (%00) as an invalid filter, which the statement could not run", async () => {
    const tq = transactionQuery(transactionFilters((n) => ({ q: "Ana\u0000", status: "paid" })[n as "q" | "status"]), { limit: 100 });
    expect(tq.invalid).toEqual(["q"]);
    // The other filters still apply, and a query built without it reads.
    expect(tq.query).toMatchObject({ status: ["paid"] });
    expect(tq.query.q).toBeUndefined();
    const lines = await exportOf(mine, { status: "paid" });
    expect(lines[0]).toBe(TRANSACTIONS_CSV_HEADER.join(";"));
  });

  it("reads its first page before answering: a statement that fails is an error, never a 200 download with only the header", async () => {
    // A query the validation would have refused (a NUL, which the database cannot compare), built by hand.
    const tq = transactionQuery(transactionFilters((n) => ({ status: "paid" })[n as "status"]), { limit: 100 });
    await expect(transactionsCsvStream(ctxOf(mine), { ...tq, query: { ...tq.query, q: "Ana\u0000" } })).rejects.toThrow();
    // The same query without the NUL answers a file.
    expect((await exportOf(mine, { status: "paid" }))[0]).toBe(TRANSACTIONS_CSV_HEADER.join(";"));
  });

  it("is named by the Brasília day", () => {
    expect(transactionsCsvFilename(new Date("2026-11-24T02:00:00Z"))).toBe("transacoes-arara-2026-11-23.csv");
  });
});
