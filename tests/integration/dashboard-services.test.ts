import { describe, expect, it, beforeAll } from "vitest";
import { createTestAccount } from "@/tests/helpers/accounts";
import { insertTransaction } from "@/tests/helpers/fixtures";
import { findAccountById, rotateSecretKey } from "@/lib/services/accounts/accounts";
import { updateCompanySettings } from "@/lib/services/accounts/update-company-settings";
import { getTransactionTimeline } from "@/lib/services/transactions/transaction-timeline";
import { listApiKeys } from "@/lib/services/accounts/dashboard-api-keys";
import { sandboxMove } from "@/lib/services/transactions/sandbox-move";
import { refundTransaction } from "@/lib/services/transactions/refund-transaction";
import { ServiceError } from "@/lib/services/errors";
import type { Account, ServiceContext } from "@/lib/services/context";
import { parseReais, reaisInput } from "@/components/dashboard/money-input";
import { checkPixKeyInput } from "@/components/dashboard/pix-key-input";
import { safeCallbackUrl } from "@/lib/auth/callback-url";
import { csvField, decimalComma } from "@/components/dashboard/csv";
import { entryDescription } from "@/components/dashboard/statement-text";

let account: Account;
let other: Account;
const ctxOf = (a: Account): ServiceContext => ({ account: a, actor: "dashboard:1", requestId: "test", now: new Date() });

beforeAll(async () => {
  account = (await findAccountById((await createTestAccount("Painel")).companyId))!;
  other = (await findAccountById((await createTestAccount("Outro")).companyId))!;
});

async function expectFieldErrors(p: Promise<unknown>, fields: string[]) {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ServiceError);
  expect((err as ServiceError).code).toBe("validation_error");
  expect((err as ServiceError).errors?.map((e) => e.field).sort()).toEqual([...fields].sort());
}

describe("company settings from the dashboard", () => {
  it("saves name, contact e-mail, city and the PIX key in DICT form with its type", async () => {
    const row = await updateCompanySettings(ctxOf(account), {
      name: "Padaria Pão de Mel",
      email: " Contato@PaoDeMel.com.br ",
      city: "Belo Horizonte",
      pixKey: "(31) 99876-5432",
    });
    expect(row).toMatchObject({
      name: "Padaria Pão de Mel",
      email: "contato@paodemel.com.br",
      city: "Belo Horizonte",
      pixKey: "+5531998765432",
      pixKeyType: "phone",
    });
    expect((await findAccountById(account.id))!.pixKey).toBe("+5531998765432");
  });

  it("refuses an invalid key, a key that is not of the chosen type, and bad fields, changing nothing", async () => {
    const before = await findAccountById(account.id);
    await expectFieldErrors(updateCompanySettings(ctxOf(account), { name: "Padaria", email: "x@y.com", city: "Recife", pixKey: "nao-e-chave" }), ["pixKey"]);
    await expectFieldErrors(
      updateCompanySettings(ctxOf(account), { name: "Padaria", email: "x@y.com", city: "Recife", pixKey: "x@y.com", pixKeyType: "cpf" }),
      ["pixKey"],
    );
    await expectFieldErrors(updateCompanySettings(ctxOf(account), { name: "P", email: "nope", city: "12", pixKey: "x@y.com" }), ["name", "email", "city"]);
    expect(await findAccountById(account.id)).toEqual(before);
  });

  it("changes only the signed-in account", async () => {
    const otherBefore = await findAccountById(other.id);
    await updateCompanySettings(ctxOf(account), { name: "Só Esta", email: "a@b.com", city: "Natal", pixKey: "a@b.com" });
    expect(await findAccountById(other.id)).toEqual(otherBefore);
  });
});

describe("transaction timeline", () => {
  it("lists every status change in order, with partial refund amounts", async () => {
    const t = await insertTransaction(account.id, { amount: 5000 });
    // A row inserted directly has no creation entry; the moves below write theirs.
    await sandboxMove(ctxOf(account), t.id, "paid");
    await refundTransaction(ctxOf(account), t.id, { amount: 1200 });
    await refundTransaction(ctxOf(account), t.id, {});
    const timeline = await getTransactionTimeline(ctxOf(account), t.id);
    expect(timeline.map((e) => [e.fromStatus, e.toStatus, e.cause, e.amount])).toEqual([
      ["pending", "paid", "payment_received", null],
      ["paid", "paid", "partial_refund", 1200],
      ["paid", "refunded", "refund", 3800],
    ]);
    expect(timeline.every((e) => e.actor === "dashboard:1")).toBe(true);
  });

  it("is not found for another account's transaction", async () => {
    const t = await insertTransaction(other.id);
    await expect(getTransactionTimeline(ctxOf(account), t.id)).rejects.toMatchObject({ code: "not_found" });
    await expect(getTransactionTimeline(ctxOf(account), "abc")).rejects.toMatchObject({ code: "not_found" });
  });
});

describe("API keys list", () => {
  it("shows hints only, newest first, with the rotated key revoked", async () => {
    const { hint } = await rotateSecretKey(account.id);
    const keys = await listApiKeys(ctxOf(account));
    expect(keys[0]).toMatchObject({ hint, revokedAt: null });
    expect(keys.slice(1).every((k) => k.revokedAt !== null)).toBe(true);
    expect(keys.every((k) => /^sk_test_.{2}….{4}$/.test(k.hint))).toBe(true);
    expect((await listApiKeys(ctxOf(other))).every((k) => !keys.some((m) => m.id === k.id))).toBe(true);
  });
});

describe("dashboard input helpers", () => {
  it.each([
    ["1.234,56", 123456],
    ["1234,56", 123456],
    ["1234.56", 123456],
    ["R$ 50", 5000],
    ["50,5", 5050],
    ["0,01", 1],
    ["1.000", 100000],
    ["10.50", 1050],
    ["", null],
    ["abc", null],
    ["1,2,3", null],
    ["12,345", null],
    ["-5,00", null],
  ])("reads %j as %j centavos", (input, cents) => {
    expect(parseReais(input)).toBe(cents);
  });

  it("writes centavos back in the input format", () => {
    expect(reaisInput(123456)).toBe("1.234,56");
    expect(reaisInput(5)).toBe("0,05");
  });

  it("takes a key written as a CPF (punctuated or 11 bare digits) as a CPF, not as the phone its digits spell", () => {
    expect(checkPixKeyInput("123.456.789-00", "")).toMatchObject({ ok: false, problem: "invalid_cpf" });
    expect(checkPixKeyInput("12345678900", "")).toMatchObject({ ok: false, problem: "invalid_cpf" });
    expect(checkPixKeyInput("+55 12 34567-8900", "")).toMatchObject({ ok: false, problem: "invalid_phone" });
    expect(checkPixKeyInput("111.444.777-35", "")).toMatchObject({ ok: true, type: "cpf", key: "11144477735" });
    expect(checkPixKeyInput("  ", "")).toBeNull();
  });

  it.each([
    [undefined, "/dashboard"],
    ["/dashboard/statement?type=fee", "/dashboard/statement?type=fee"],
    ["https://evil.example/phish", "/dashboard"],
    ["//evil.example/dashboard", "/dashboard"],
    ["/dashboardx", "/dashboard"],
    ["/api/v1/company", "/dashboard"],
    ["javascript:alert(1)", "/dashboard"],
    ["http://127.0.0.1:3000/dashboard/cash-out", "/dashboard/cash-out"],
  ])("sends sign-in callback %j to %j (never off the dashboard)", (raw, expected) => {
    expect(safeCallbackUrl(raw)).toBe(expected);
  });

  it("writes CSV fields for spreadsheets: decimal comma, quoting, no formula injection", () => {
    expect(decimalComma(-3000)).toBe("-30,00");
    expect(decimalComma(123456)).toBe("1234,56");
    expect(csvField('Saque "rápido"; PIX')).toBe('"Saque ""rápido""; PIX"');
    expect(csvField("=HYPERLINK(\"x\")", { text: true })).toBe("\"'=HYPERLINK(\"\"x\"\")\"");
    expect(csvField(null)).toBe("");
    // Text with a comma is one cell for a program that splits on commas too; a number with the decimal comma stays a number.
    expect(csvField("Ana,=HYPERLINK(1)", { text: true })).toBe('"Ana,=HYPERLINK(1)"');
    expect(csvField(decimalComma(1990))).toBe("19,90");
  });

  it("describes statement entries in Portuguese with their references", () => {
    expect(entryDescription({ type: "fee", transactionId: 12, cashOutId: null, description: "Fee" })).toBe("Tarifa da transação #12");
    expect(entryDescription({ type: "cash_out_reversal", transactionId: null, cashOutId: 7, description: "x" })).toBe("Devolução do saque PIX #7");
    expect(entryDescription({ type: "adjustment", transactionId: null, cashOutId: null, description: "Ajuste manual" })).toBe("Ajuste manual");
  });
});

describe("the webhook secret written with another KEY_ENCRYPTION_SECRET", () => {
  it("is reported to the merchant with the way out (a new secret), not as 'something went wrong'; a new one reads again", async () => {
    const { revealWebhookSecret, rotateWebhookSecret } = await import("@/lib/services/accounts/accounts");
    const { errorState } = await import("@/lib/auth/action");
    const created = await createTestAccount("Loja Segredo Antigo");
    const account = (await findAccountById(created.companyId))!;
    // As a script that ran with another secret wrote it: unreadable with this server's key.
    const unreadable = { ...account, webhookSecretEnc: "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA" };
    let failure: unknown;
    try {
      revealWebhookSecret(unreadable);
    } catch (e) {
      failure = e;
    }
    expect(failure).toBeInstanceOf(ServiceError);
    const shown = errorState(failure);
    expect(shown).toMatchObject({ status: "error" });
    expect((shown as { message: string }).message).toContain("Gere um novo segredo");
    const fresh = await rotateWebhookSecret(created.companyId);
    expect(revealWebhookSecret((await findAccountById(created.companyId))!)).toBe(fresh);
  });
});
