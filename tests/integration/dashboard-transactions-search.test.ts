/**
 * The transactions page's search box (listTransactions' `q`): a phone finds its charges however it is
 * typed, and a name typed without accents finds the accented one, with no migration (translate() in
 * SQL), on both databases; another account's charges stay out.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { createTestAccount } from "@/tests/helpers/accounts";
import { insertTransaction } from "@/tests/helpers/fixtures";
import { findAccountById } from "@/lib/services/accounts/accounts";
import { ListTransactionsQuery, listTransactions } from "@/lib/services/transactions/list-transactions";
import type { Account } from "@/lib/services/context";

let mine: Account;
let other: Account;
const ids: Record<string, number> = {};

const customer = (name: string, phone: string | null) => ({
  name,
  email: "cliente@example.com",
  phone,
  externalRef: null,
  document: { type: "cpf" as const, number: "11144477735" },
});

async function search(a: Account, q: string): Promise<number[]> {
  const { rows } = await listTransactions({ account: a }, ListTransactionsQuery.parse({ q, limit: "100" }));
  return rows.map((t) => t.id).sort();
}

beforeAll(async () => {
  mine = (await findAccountById((await createTestAccount("Busca")).companyId))!;
  other = (await findAccountById((await createTestAccount("Busca Alheia")).companyId))!;
  ids.conceicao = (await insertTransaction(mine.id, { customer: customer("Maria da Conceição", "11987654350") })).id;
  ids.joao = (await insertTransaction(mine.id, { customer: customer("JOÃO PEDRO ÁVILA", "5521912345678") })).id;
  ids.plain = (await insertTransaction(mine.id, { customer: customer("Ana Souza", null), externalRef: "pedido-ação-7" })).id;
  await insertTransaction(other.id, { customer: customer("Maria da Conceição", "11987654350") });
});

describe("the dashboard's search box", () => {
  it("finds a phone typed with or without punctuation and country code", async () => {
    for (const q of ["11987654350", "(11) 98765-4350", "11 98765-4350", "+55 (11) 98765-4350", "98765-4350"]) {
      expect(await search(mine, q), q).toEqual([ids.conceicao]);
    }
    // Stored with the country code, found without it.
    expect(await search(mine, "(21) 91234-5678")).toEqual([ids.joao]);
    expect(await search(mine, "+55 21 91234-5678")).toEqual([ids.joao]);
    // Too short for a phone: not matched as one.
    expect(await search(mine, "4350")).toEqual([]);
  });

  it("ignores accents and case in names and references", async () => {
    expect(await search(mine, "conceicao")).toEqual([ids.conceicao]);
    expect(await search(mine, "Conceição")).toEqual([ids.conceicao]);
    expect(await search(mine, "Joao")).toEqual([ids.joao]);
    expect(await search(mine, "joão pedro avila")).toEqual([ids.joao]);
    expect(await search(mine, "pedido-acao")).toEqual([ids.plain]);
    expect(await search(mine, "souza")).toEqual([ids.plain]);
  });

  it("stays in the account", async () => {
    const theirs = await search(other, "conceicao");
    expect(theirs).toHaveLength(1);
    expect(theirs).not.toContain(ids.conceicao);
  });
});
