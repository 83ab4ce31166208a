/**
 * tableRowsOf (lib/db/prepared.ts) maps raw rows of a table the way drizzle maps a `select()` of it:
 * the list page relies on it instead of drizzle's per-field mapping. Same objects, key for key and
 * type for type (dates, numbers, JSON, booleans, nulls), on the suite's database. tableColumnsOf is
 * the select list the page is read with.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { inArray, sql } from "drizzle-orm";
import { call } from "../helpers/app";
import { createTestAccount } from "../helpers/accounts";
import { pixCharge } from "../helpers/webhook-receiver";
import { getDb } from "@/lib/db/client";
import { transactions } from "@/lib/db/schema";
import { executePrepared, tableColumnsOf, tableRowsOf } from "@/lib/db/prepared";
import { rowsOf } from "@/lib/db/rows";
import { listTransactions } from "@/lib/services/transactions/list-transactions";
import type { CreatedAccount } from "@/lib/services/accounts/accounts";

let acct: CreatedAccount;
const ids: number[] = [];

beforeAll(async () => {
  acct = await createTestAccount();
  const bodies = [
    { ...pixCharge("https://example.com/hook", 1234, "ref-1"), metadata: { order: 7, tags: ["a"] } },
    { ...pixCharge(null, 999) },
    { paymentMethod: "boleto", amount: 5000, customer: { name: "João Souza", email: "joao@example.com", document: { type: "cpf", number: "11144477735" } }, items: [{ title: "Livro", unitPrice: 5000, quantity: 1, tangible: true }] },
  ];
  for (const body of bodies) {
    const res = await call("POST", "/api/v1/transactions", { auth: acct.secretKey, body });
    expect(res.status).toBe(201);
    ids.push(res.body.data.id);
  }
  await call("PUT", `/api/v1/transactions/${ids[1]}/test`, { auth: acct.secretKey, body: { status: "paid" } });
});

describe("tableRowsOf", () => {
  it("gives what drizzle's select() gives for the same rows", async () => {
    const db = getDb();
    const expected = await db.select().from(transactions).where(inArray(transactions.id, ids)).orderBy(transactions.id);
    const raw = rowsOf<Record<string, unknown>>(await executePrepared(db, db.select().from(transactions).where(inArray(transactions.id, ids)).orderBy(transactions.id).getSQL()));
    const mapped = tableRowsOf(transactions, raw);
    expect(mapped).toEqual(expected);
    expect(mapped.map((r) => Object.keys(r))).toEqual(expected.map((r) => Object.keys(r)));
    expect(mapped[1].paidAt).toBeInstanceOf(Date);
    expect(mapped[0].metadata).toEqual(expected[0].metadata);
    expect(typeof mapped[0].amount).toBe("number");
  });

  it("reads the same rows from the select list tableColumnsOf makes (every column, under its own name)", async () => {
    const db = getDb();
    const expected = await db.select().from(transactions).where(inArray(transactions.id, ids)).orderBy(transactions.id);
    const raw = rowsOf<Record<string, unknown>>(await executePrepared(db, sql`select ${tableColumnsOf(transactions)} from ${transactions} where ${inArray(transactions.id, ids)} order by id`));
    expect(Object.keys(raw[0]).length).toBe(Object.keys(expected[0]).length);
    expect(tableRowsOf(transactions, raw)).toEqual(expected);
  });

  it("is what a list page returns, with the page's count", async () => {
    const db = getDb();
    const { rows, pagination } = await listTransactions({ account: { id: acct.companyId } } as never, { page: 1, limit: 10 } as never);
    const expected = await db.select().from(transactions).where(sql`${transactions.companyId} = ${acct.companyId}`).orderBy(sql`${transactions.createdAt} desc, ${transactions.id} desc`);
    expect(rows).toEqual(expected);
    expect(pagination).toMatchObject({ total: 3 });
  });
});
