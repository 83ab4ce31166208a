/**
 * The webhook URL's check resolves its host name (a DNS lookup, up to 3 s): it runs before any
 * database transaction opens, on every request that takes a postbackUrl, with or without an
 * Idempotency-Key, and on the checkout page (a payment link's lock). On the embedded database a lookup
 * inside a transaction would hold every other request for its length; on PostgreSQL, its locks.
 *
 * The OS resolver's answer for one test name is held here until the test lets it go (every other
 * name goes to the real lookup, and the check under test is the real one). While it is held, the
 * embedded database has no transaction open, a transaction from another connection takes the rows
 * the request would lock, with a lock timeout, and no session is idle in a transaction (PostgreSQL).
 */
import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { call } from "../helpers/app";
import { createTestAccount } from "../helpers/accounts";
import { paidPix, pixBody } from "../helpers/flows";
import { databaseKind, getDb } from "@/lib/db/client";
import { checkouts, companies } from "@/lib/db/schema";
import type { CreatedAccount } from "@/lib/services/accounts/accounts";

// Read when the app first parses its configuration (after this module is evaluated).
process.env.WEBHOOK_ALLOW_PRIVATE_URLS = "false";

const SLOW_HOST = "slow-dns.arara-test.com";
const dns = vi.hoisted(() => ({ waiting: [] as (() => void)[], asked: 0 }));
vi.mock("node:dns/promises", async (importOriginal) => {
  const real = await importOriginal<typeof import("node:dns/promises")>();
  const lookup = (async (host: string, opts?: unknown) => {
    if (host.toLowerCase() === "slow-dns.arara-test.com") {
      dns.asked += 1;
      await new Promise<void>((resolve) => dns.waiting.push(resolve));
      const answer = [{ address: "93.184.215.14", family: 4 }];
      return (opts as { all?: boolean } | undefined)?.all ? answer : answer[0];
    }
    return (real.lookup as (h: string, o?: unknown) => Promise<unknown>)(host, opts);
  }) as typeof real.lookup;
  return { ...real, lookup, default: { ...real, lookup } };
});

let acct: CreatedAccount;
const HOOK = `https://${SLOW_HOST}/hooks/arara`;

beforeAll(async () => {
  acct = await createTestAccount("Loja DNS lento");
  await paidPix(acct, 50_000);
});

/** While the lookup of SLOW_HOST made by `send` is held: the rows of `lock` are free. Then it is let go. */
async function whileTheLookupIsHeld(send: () => Promise<{ status: number; text: string; body: any }>, lock: (tx: any) => Promise<unknown>) {
  const pending = send();
  await vi.waitFor(() => expect(dns.waiting).toHaveLength(1), { timeout: 30_000, interval: 10 });
  // The embedded database says whether a transaction is open while the lookup is held.
  const embedded = (getDb() as unknown as { $client?: { isInTransaction?: () => boolean } }).$client;
  if (databaseKind() === "pglite") expect(embedded?.isInTransaction?.()).toBe(false);
  await getDb().transaction(async (tx) => {
    await tx.execute(sql`set local lock_timeout = '2s'`);
    await lock(tx);
  });
  expect(dns.waiting).toHaveLength(1); // still held
  if (databaseKind() === "postgres") {
    const [{ n }] = (await getDb().execute(
      sql`select count(*)::int as n from pg_stat_activity where datname = current_database() and state like 'idle in transaction%'`,
    )) as unknown as { n: number }[];
    expect(n).toBe(0);
  }
  dns.waiting.splice(0).forEach((release) => release());
  return pending;
}

const lockAccount = (tx: any) => tx.select().from(companies).where(eq(companies.id, acct.companyId)).for("update");
const keyed = () => ({ "idempotency-key": `dns-${Math.random()}` });

describe("a postbackUrl's DNS lookup runs before any transaction opens", () => {
  for (const withKey of [true, false]) {
    const headers = () => (withKey ? keyed() : {});
    const label = withKey ? "with an Idempotency-Key" : "without a key";

    it(`creating a charge (${label})`, async () => {
      const r = await whileTheLookupIsHeld(() => call("POST", "/api/v1/transactions", { auth: acct.secretKey, body: pixBody({ postbackUrl: HOOK }), headers: headers() }), lockAccount);
      expect(r.status, r.text).toBe(201);
    });

    it(`requesting a cash-out (${label})`, async () => {
      const r = await whileTheLookupIsHeld(
        () => call("POST", "/api/v1/cashOut/request", { auth: acct.secretKey, body: { amount: 1_000, pixKey: "maria@example.com", postbackUrl: HOOK }, headers: headers() }),
        lockAccount,
      );
      expect(r.status, r.text).toBe(201);
    });

    it(`creating a payment link (${label})`, async () => {
      const r = await whileTheLookupIsHeld(
        () => call("POST", "/api/v1/checkouts", { auth: acct.secretKey, body: { amount: 2_500, description: "Curso", postbackUrl: HOOK }, headers: headers() }),
        lockAccount,
      );
      expect(r.status, r.text).toBe(201);
    });
  }

  it("a URL with spaces around it is looked up once, before the transaction", async () => {
    const asked = dns.asked;
    const r = await whileTheLookupIsHeld(
      () => call("POST", "/api/v1/cashOut/request", { auth: acct.secretKey, body: { amount: 1_000, pixKey: "maria@example.com", postbackUrl: `  ${HOOK} ` }, headers: keyed() }),
      lockAccount,
    );
    expect(r.status, r.text).toBe(201);
    expect(dns.asked).toBe(asked + 1);
  });

  it("paying a payment link on its page: not under the link's lock", async () => {
    // The link is made with the lookup answered at once (let go as soon as it is asked).
    const making = call("POST", "/api/v1/checkouts", { auth: acct.secretKey, body: { amount: 3_000, methods: ["boleto", "pix"], postbackUrl: HOOK } });
    await vi.waitFor(() => expect(dns.waiting).toHaveLength(1), { timeout: 30_000, interval: 10 });
    dns.waiting.splice(0).forEach((release) => release());
    const made = await making;
    expect(made.status, made.text).toBe(201);
    const link = made.body.data as { id: number; secureId: string };
    const payer = { name: "Maria da Silva", email: "maria@example.com", document: "111.444.777-35" };
    for (const method of ["pix", "boleto"]) {
      const r = await whileTheLookupIsHeld(
        () => call("POST", `/checkout/${link.secureId}/pay`, { body: { method, payer }, headers: { "content-type": "application/json" } }),
        (tx) => tx.select().from(checkouts).where(eq(checkouts.id, link.id)).for("update"),
      );
      expect(r.status, r.text).toBe(201);
    }
  });
});
