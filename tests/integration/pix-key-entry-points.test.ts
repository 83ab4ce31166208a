/**
 * Every way a PIX key comes in (sign-up, `npm run account:create`, dashboard settings, cash-out by
 * API) goes through one parser: a mistyped CPF is refused with a message that says how to write a
 * phone key, never stored or paid as the phone number its digits spell; a phone key is a mobile
 * number whether or not the type is sent.
 */
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import { count, eq } from "drizzle-orm";
import postgres from "postgres";
import { PGlite } from "@electric-sql/pglite";
import { getDb } from "@/lib/db/client";
import { cashOuts, companies } from "@/lib/db/schema";
import { createAccount, findAccountById } from "@/lib/services/accounts/accounts";
import type { Account, ServiceContext } from "@/lib/services/context";
import { ServiceError } from "@/lib/services/errors";
import { updateCompanySettings } from "@/lib/services/accounts/update-company-settings";
import { readSignupForm } from "@/app/(auth)/signup/form";
import { createTestAccount, randomCpf } from "../helpers/accounts";
import { balanceOf, cashOut, paidPix } from "../helpers/money";
import { createServerDatabase } from "../helpers/server";

const run = promisify(execFile);
const ROOT = path.resolve(__dirname, "../..");

// Written as a CPF, with wrong check digits: each spells a phone number (+55 11 ...) if read as one.
const MISTYPED_CPFS = ["111.444.777-30", "11144477730", "111444777-30", "11987654321"];
const MISTYPED_CNPJS = ["11.222.333/0001-82", "11222333000182"];
const LANDLINES = ["+551133334444", "+55 (11) 3333-4444", "1133334444"];

async function refusal(p: Promise<unknown>): Promise<ServiceError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ServiceError);
  return err as ServiceError;
}

function signupForm(pixKey: string): FormData {
  const f = new FormData();
  for (const [k, v] of Object.entries({
    name: "Loja Nova",
    document: "111.444.777-35",
    email: "nova@example.com",
    city: "Curitiba",
    password: "senha-forte-1",
    passwordConfirmation: "senha-forte-1",
    pixKey,
  })) {
    f.set(k, v);
  }
  return f;
}

describe("sign-up: the form and the account it creates", () => {
  it.each([...MISTYPED_CPFS, ...MISTYPED_CNPJS])("the form refuses the mistyped document %j as PIX key, saying to write a phone with +55", (key) => {
    const form = readSignupForm(signupForm(key));
    expect(form.ok).toBe(false);
    if (!form.ok) expect(form.fieldErrors.pixKey).toContain("+55 11 98765-4321");
  });

  it.each(LANDLINES)("the form refuses the landline %j as PIX key", (key) => {
    const form = readSignupForm(signupForm(key));
    expect(form).toMatchObject({ ok: false, fieldErrors: { pixKey: expect.stringContaining("fixo") } });
  });

  it("the form takes a phone written with +55, a valid CPF and no key at all", () => {
    expect(readSignupForm(signupForm("+55 11 98765-4321"))).toMatchObject({ ok: true });
    expect(readSignupForm(signupForm("111.444.777-35"))).toMatchObject({ ok: true });
    expect(readSignupForm(signupForm(""))).toMatchObject({ ok: true });
  });

  it.each([...MISTYPED_CPFS, ...MISTYPED_CNPJS, ...LANDLINES])("createAccount refuses the PIX key %j and creates nothing", async (key) => {
    const email = `recusa.${Math.random().toString(36).slice(2)}@example.com`;
    const err = await refusal(createAccount({ name: "Loja Recusada", document: randomCpf(), email, password: "senha-forte-1", pixKey: key }));
    expect(err.code).toBe("validation_error");
    expect(err.errors).toEqual([{ field: "pixKey", message: expect.stringContaining("+55 11 98765-4321") }]);
    const [{ n }] = await getDb().select({ n: count() }).from(companies).where(eq(companies.email, email));
    expect(n).toBe(0);
  });

  it("createAccount stores keys in DICT form: a CPF as a CPF, a phone written with +55 as a phone", async () => {
    const cpf = await createAccount({ name: "Loja CPF", document: randomCpf(), email: "cpf.key@example.com", pixKey: "111.444.777-35" });
    expect(await findAccountById(cpf.companyId)).toMatchObject({ pixKey: "11144477735", pixKeyType: "cpf" });
    const phone = await createAccount({ name: "Loja Fone", document: randomCpf(), email: "fone.key@example.com", pixKey: "+55 (11) 98765-4321" });
    expect(await findAccountById(phone.companyId)).toMatchObject({ pixKey: "+5511987654321", pixKeyType: "phone" });
  });
});

describe("npm run account:create", () => {
  // The script as an operator runs it, on a database of its own.
  async function accountCreate(args: string[]) {
    const db = await createServerDatabase();
    try {
      const result = await run(path.join(ROOT, "node_modules/.bin/tsx"), ["scripts/account-create.ts", ...args], {
        cwd: ROOT,
        env: { ...process.env, ...db.env, LOG_LEVEL: "silent" },
        timeout: 60_000,
      }).then(
        (r) => ({ code: 0, stdout: r.stdout, stderr: r.stderr }),
        (e: { code?: number; stdout?: string; stderr?: string }) => ({ code: e.code ?? -1, stdout: e.stdout ?? "", stderr: e.stderr ?? "" }),
      );
      // What the script left in its database (none when it stopped before migrating: no table, no row).
      type Row = { pix_key: string | null; pix_key_type: string | null };
      const query = "select pix_key, pix_key_type from companies";
      let stored: Row[];
      if (db.env.DATABASE_URL) {
        const sql = postgres(db.env.DATABASE_URL, { max: 1, onnotice: () => {} });
        stored = await sql.unsafe<Row[]>(query).catch(() => []);
        await sql.end();
      } else {
        const pg = new PGlite(db.env.PGLITE_DIR);
        stored = await pg.query<Row>(query).then((r) => r.rows, () => []);
        await pg.close();
      }
      return { ...result, stored };
    } finally {
      await db.drop();
    }
  }
  const base = ["--name", "Loja CLI", "--document", "11.222.333/0001-81", "--email", "cli@example.com", "--json"];

  it("refuses a mistyped CPF as PIX key (exit 1, a message saying to write a phone with +55) and creates no account", async () => {
    const r = await accountCreate([...base, "--pix-key", "111.444.777-30"]);
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(r.stderr).toContain("pixKey");
    expect(r.stderr).toContain("+55 11 98765-4321");
    expect(r.stdout).not.toContain("secretKey");
    expect(r.stored).toEqual([]);
  }, 90_000);

  it("stores a phone key written with +55 as that phone", async () => {
    const r = await accountCreate([...base, "--pix-key", "+55 11 98765-4321"]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ companyId: expect.any(Number), secretKey: expect.stringMatching(/^sk_test_/) });
    expect(r.stored).toEqual([{ pix_key: "+5511987654321", pix_key_type: "phone" }]);
    // Without --password it says so: the account has no dashboard login.
    expect(r.stderr).toContain("No dashboard login was created (no --password)");
  }, 90_000);
});

describe("dashboard settings", () => {
  let account: Account;
  const ctx = (): Pick<ServiceContext, "account"> => ({ account });
  beforeAll(async () => {
    account = (await findAccountById((await createTestAccount("Loja Config")).companyId))!;
  });
  const settings = (pixKey: string, pixKeyType?: string) => ({ name: "Loja Config", email: "config@example.com", city: "Recife", pixKey, pixKeyType });

  it.each([...MISTYPED_CPFS, ...MISTYPED_CNPJS, ...LANDLINES])("refuses the PIX key %j (type detected) and keeps the stored key", async (key) => {
    const before = await findAccountById(account.id);
    const err = await refusal(updateCompanySettings(ctx(), settings(key)));
    expect(err.errors).toEqual([{ field: "pixKey", message: expect.stringContaining("+55") }]);
    expect(await findAccountById(account.id)).toEqual(before);
  });

  it.each(LANDLINES)("refuses the landline %j with the type phone too", async (key) => {
    const err = await refusal(updateCompanySettings(ctx(), settings(key, "phone")));
    expect(err.errors).toEqual([{ field: "pixKey", message: expect.stringContaining("Landlines cannot be PIX keys") }]);
  });

  it("refuses a CPF typed into the phone type, and saves a phone written with +55", async () => {
    const err = await refusal(updateCompanySettings(ctx(), settings("111.444.777-35", "phone")));
    expect(err.errors?.[0]).toMatchObject({ field: "pixKey", message: expect.stringContaining("written as a CPF or CNPJ") });
    expect(await updateCompanySettings(ctx(), settings("+55 11 98765-4321"))).toMatchObject({ pixKey: "+5511987654321", pixKeyType: "phone" });
    expect(await updateCompanySettings(ctx(), settings("11987654321", "phone"))).toMatchObject({ pixKey: "+5511987654321", pixKeyType: "phone" });
  });
});

describe("cash-out by API", () => {
  let a: Awaited<ReturnType<typeof createTestAccount>>;
  beforeAll(async () => {
    a = await createTestAccount("Loja Saque Chave");
    await paidPix(a, 50_000);
  });

  async function expectRefused(body: Record<string, unknown>, message: string) {
    const before = await balanceOf(a);
    const res = await cashOut(a, { amount: 100, ...body });
    expect(res.status, res.text).toBe(400);
    expect(res.body.code).toBe("validation_error");
    expect(res.body.errors).toEqual([{ field: "pixKey", message: expect.stringContaining(message) }]);
    expect(await balanceOf(a)).toEqual(before);
  }

  it("refuses an e-mail key sent with pixKeyType cpf saying so, in one sentence join, without the phone hint", async () => {
    const res = await cashOut(a, { amount: 10, pixKey: "maria@example.com", pixKeyType: "cpf" });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("validation_error");
    expect(res.body.message).toBe(
      "The cash-out request is invalid: the PIX key looks like an e-mail address, but pixKeyType is cpf: send pixKeyType email (or leave it out), or a CPF as the key.",
    );
    expect(res.body.errors).toEqual([{ field: "pixKey", message: expect.not.stringMatching(/phone/i) }]);
  });

  it.each([...MISTYPED_CPFS, ...MISTYPED_CNPJS])("refuses the mistyped document %j, saying how to write a phone key", async (pixKey) => {
    await expectRefused({ pixKey }, "+55 11 98765-4321");
  });

  it.each(LANDLINES)("refuses the landline %j with pixKeyType phone exactly as without it", async (pixKey) => {
    await expectRefused({ pixKey, pixKeyType: "phone" }, "Landlines cannot be PIX keys");
    await expectRefused({ pixKey, pixKeyType: "telefone" }, "Landlines cannot be PIX keys");
    await expectRefused({ pixKey }, "Landlines cannot be PIX keys");
  });

  it("sends a mobile to the same key with or without the type, and never a mistyped CPF to a phone", async () => {
    const typed = await cashOut(a, { amount: 100, pixKey: "+55 11 98765-4321", pixKeyType: "phone" });
    const guessed = await cashOut(a, { amount: 100, pixKey: "+55 11 98765-4321" });
    expect(typed.status, typed.text).toBe(201);
    expect(guessed.status, guessed.text).toBe(201);
    expect(typed.body.data).toMatchObject({ pixKey: "+5511987654321", pixKeyType: "phone" });
    expect(guessed.body.data).toMatchObject({ pixKey: "+5511987654321", pixKeyType: "phone" });
    const toMistypedCpf = await getDb().select().from(cashOuts).where(eq(cashOuts.pixKey, "+5511144477730"));
    expect(toMistypedCpf).toEqual([]);
  });
});
