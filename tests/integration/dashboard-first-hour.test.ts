/**
 * A merchant's first hour: the city asked at sign-up becomes the account's PIX merchant city (and is
 * marked as given by the merchant), `account:create --city` does the same, and the overview's
 * "Primeiros passos" reads each step's state from the database until the first paid sale.
 */
import path from "node:path";
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { readSignupForm } from "@/app/(auth)/signup/form";
import { createAccount, findAccountById } from "@/lib/services/accounts/accounts";
import { getFirstSteps } from "@/lib/services/accounts/first-steps";
import { updateCompanySettings } from "@/lib/services/accounts/update-company-settings";
import { createCheckout } from "@/lib/services/checkouts/create-checkout";
import { systemContext } from "@/lib/services/context";
import { buildStaticBrCode, parseBrCode } from "@/lib/domain/pix/brcode";
import { createTestAccount, randomCpf } from "@/tests/helpers/accounts";
import { insertTransaction } from "@/tests/helpers/fixtures";

const ROOT = path.resolve(__dirname, "../..");

function signupForm(over: Record<string, string | undefined> = {}): FormData {
  const f = new FormData();
  const fields: Record<string, string | undefined> = {
    name: "Loja Nova",
    document: "111.444.777-35",
    email: "nova@example.com",
    city: "Curitiba",
    password: "senha-forte-1",
    passwordConfirmation: "senha-forte-1",
    pixKey: "",
    ...over,
  };
  for (const [k, v] of Object.entries(fields)) if (v !== undefined) f.set(k, v);
  return f;
}

const stepsOf = (s: Awaited<ReturnType<typeof getFirstSteps>>) => Object.fromEntries(s.steps.map((x) => [x.id, x.done]));

describe("sign-up: the city", () => {
  it("is required, in letters, up to 60 characters as the settings page takes it", () => {
    expect(readSignupForm(signupForm({ city: undefined }))).toMatchObject({ ok: false, fieldErrors: { city: "Informe a cidade que aparece no PIX." } });
    expect(readSignupForm(signupForm({ city: "   " }))).toMatchObject({ ok: false, fieldErrors: { city: "Informe a cidade que aparece no PIX." } });
    expect(readSignupForm(signupForm({ city: "12345" }))).toMatchObject({ ok: false, fieldErrors: { city: expect.stringContaining("letras") } });
    expect(readSignupForm(signupForm({ city: "São José dos Campos" }))).toMatchObject({ ok: true, data: { city: "São José dos Campos" } });
    expect(readSignupForm(signupForm({ city: "A".repeat(61) }))).toMatchObject({
      ok: false,
      fieldErrors: { city: "Use até 60 caracteres." },
    });
    expect(readSignupForm(signupForm({ city: "  São   Luís " }))).toMatchObject({ ok: true, data: { city: "São Luís" } });
    expect(readSignupForm(signupForm({ city: "Embu-Guaçu" }))).toMatchObject({ ok: true });
    expect(readSignupForm(signupForm({ city: "Pau d'Arco" }))).toMatchObject({ ok: true });
  });

  it("becomes the account's PIX merchant city, whole in its BR Code, and counts as checked", async () => {
    const created = await createAccount({ name: "Loja Cidade", document: randomCpf(), email: `cidade.${Date.now()}@example.com`, city: "Florianópolis" });
    const account = (await findAccountById(created.companyId))!;
    expect(account.city).toBe("Florianópolis");
    expect(account.cityConfirmedAt).toBeInstanceOf(Date);
    const code = buildStaticBrCode({ key: account.pixKey!, merchantName: account.name, merchantCity: account.city, amount: 1000, txid: "abc123" });
    expect(parseBrCode(code).merchantCity).toBe("Florianopolis");
    expect(stepsOf(await getFirstSteps({ account }))).toMatchObject({ pix_details: true });
  });

  it("a name longer than the PIX code's 15 characters is kept whole; the code prints its first 15, folded", async () => {
    const created = await createAccount({ name: "Loja SJC", document: randomCpf(), email: `sjc.${Date.now()}@example.com`, city: "São José dos Campos" });
    const account = (await findAccountById(created.companyId))!;
    expect(account.city).toBe("São José dos Campos");
    const code = buildStaticBrCode({ key: account.pixKey!, merchantName: account.name, merchantCity: account.city, amount: 1000, txid: "abc123" });
    expect(parseBrCode(code).merchantCity).toBe("Sao Jose dos Ca");
  });

  it("without a city, an account gets SAO PAULO, not checked; the service refuses a city that is not a name", async () => {
    const created = await createTestAccount("Sem Cidade");
    const account = (await findAccountById(created.companyId))!;
    expect(account.city).toBe("SAO PAULO");
    expect(account.cityConfirmedAt).toBeNull();
    await expect(
      createAccount({ name: "Loja Longa", document: randomCpf(), email: `longa.${Date.now()}@example.com`, city: "Rua 12, nº 3" }),
    ).rejects.toMatchObject({ code: "validation_error", errors: [{ field: "city" }] });
  });
});

describe("npm run account:create --city", () => {
  const run = (args: string[]) =>
    spawnSync(path.join(ROOT, "node_modules/.bin/tsx"), ["scripts/account-create.ts", ...args], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: "", PGLITE_DIR: "memory://", LOG_LEVEL: "silent" },
      encoding: "utf8",
      timeout: 60_000,
    });

  it("passes the city to the account (a city that is not a name is refused, exit 1) and documents the flag", () => {
    const bad = run(["--name", "Loja Script", "--document", randomCpf(), "--email", "script@example.com", "--city", "12345"]);
    expect(bad.status, bad.stdout + bad.stderr).toBe(1);
    expect(bad.stderr).toContain("city must be a city name of letters");
    const usage = run([]);
    expect(usage.status).toBe(2);
    expect(usage.stderr).toContain("--city <city>");
  }, 90_000);
});

describe("overview: Primeiros passos", () => {
  it("says each step's state from the database and is shown until the first paid sale", async () => {
    const account = (await findAccountById((await createTestAccount("Primeiros Passos")).companyId))!;
    const ctx = systemContext(account);
    const first = await getFirstSteps(ctx);
    expect(first.show).toBe(true);
    expect(first.steps.map((s) => s.id)).toEqual(["payment_link", "api_keys", "pix_details"]);
    expect(stepsOf(first)).toEqual({ payment_link: false, api_keys: false, pix_details: false });

    // A payment link, and a charge its payer started: the link step only (the keys are not in use yet).
    const link = await createCheckout(ctx, { amount: 5000, description: "Consultoria", methods: ["pix"] });
    await insertTransaction(account.id, { checkoutId: link.row.id, status: "pending" });
    expect(stepsOf(await getFirstSteps(ctx))).toEqual({ payment_link: true, api_keys: false, pix_details: false });

    // A charge through the API (no payment link): the keys are in use.
    await insertTransaction(account.id, { status: "pending" });
    expect(stepsOf(await getFirstSteps(ctx))).toEqual({ payment_link: true, api_keys: true, pix_details: false });

    // The settings saved: the city was checked by the merchant.
    await updateCompanySettings(ctx, { name: account.name, email: account.email, city: "Recife", pixKey: account.pixKey! });
    expect(stepsOf(await getFirstSteps(ctx))).toEqual({ payment_link: true, api_keys: true, pix_details: true });
    expect((await getFirstSteps(ctx)).show).toBe(true);

    // Another account's paid sale changes nothing here; this account's first paid sale hides the card.
    const other = await createTestAccount("Outra Loja");
    await insertTransaction(other.companyId, { status: "paid", paidAt: new Date(), paidAmount: 100 });
    expect((await getFirstSteps(ctx)).show).toBe(true);
    await insertTransaction(account.id, { status: "paid", paidAt: new Date(), paidAmount: 100 });
    expect((await getFirstSteps(ctx)).show).toBe(false);
  });
});
