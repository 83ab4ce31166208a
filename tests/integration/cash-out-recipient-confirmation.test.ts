/**
 * The dashboard's cash-out is sent only to the key whose holder its confirmation step showed: the
 * lookup signs a confirmation of that key (lib/services/cash-outs/recipient-confirmation.ts) and the
 * send checks it. The browser side (fields frozen during the lookup, a key changed afterwards refused)
 * is tests/e2e/money-once.spec.ts.
 */
import { describe, expect, it } from "vitest";
import { findAccountById } from "@/lib/services/accounts/accounts";
import { lookupCashOutRecipient } from "@/lib/services/cash-outs/lookup-pix-key";
import { confirmsRecipient, RECIPIENT_CONFIRMATION_TTL_MS } from "@/lib/services/cash-outs/recipient-confirmation";
import type { ServiceContext } from "@/lib/services/context";
import { createTestAccount } from "../helpers/accounts";

async function dashboardCtx(userId = 1): Promise<ServiceContext> {
  const a = await createTestAccount("Loja Confirmacao");
  const account = (await findAccountById(a.companyId))!;
  return { account, actor: `dashboard:${userId}`, requestId: "test", now: new Date("2026-11-29T10:00:00Z") };
}

describe("a cash-out recipient's confirmation", () => {
  it("vouches for exactly the key looked up, its type and source, the amount and the form, for this account and user, for 15 minutes", async () => {
    const ctx = await dashboardCtx();
    const looked = await lookupCashOutRecipient(ctx, { pixKey: "joao.pereira@example.com", source: "arara", amount: 1500, formKey: "form-a" });
    expect(looked).toMatchObject({ type: "email", key: "joao.pereira@example.com", checked: true, holder: { name: expect.any(String) } });
    const token = looked.confirmation!;
    const same = { type: "email", key: "joao.pereira@example.com", source: "arara" as const, amount: 1500, formKey: "form-a" };
    expect(confirmsRecipient(ctx, token, same)).toBe(true);

    // Another key (the mistyped one corrected after the lookup), another type, another source: no.
    expect(confirmsRecipient(ctx, token, { ...same, key: "maria.silva@example.com" })).toBe(false);
    expect(confirmsRecipient(ctx, token, { ...same, type: "evp" })).toBe(false);
    expect(confirmsRecipient(ctx, token, { ...same, source: "psp" })).toBe(false);
    expect(confirmsRecipient(ctx, token, { ...same, source: undefined })).toBe(false);
    // Another amount, or another form (a second cash-out from the same lookup): no. One form sends
    // one cash-out (its idempotency key), so one confirmation makes at most one.
    expect(confirmsRecipient(ctx, token, { ...same, amount: 150_000 })).toBe(false);
    expect(confirmsRecipient(ctx, token, { ...same, formKey: "form-b" })).toBe(false);
    // Another user of the account, another account: no.
    expect(confirmsRecipient({ ...ctx, actor: "dashboard:2" }, token, same)).toBe(false);
    const other = await dashboardCtx();
    expect(confirmsRecipient({ ...other, now: ctx.now }, token, same)).toBe(false);
    // Expired, or tampered with (its expiry pushed on, its signature changed, nothing sent): no.
    const at = (ms: number) => ({ ...ctx, now: new Date(ctx.now.getTime() + ms) });
    expect(confirmsRecipient(at(RECIPIENT_CONFIRMATION_TTL_MS - 1000), token, same)).toBe(true);
    expect(confirmsRecipient(at(RECIPIENT_CONFIRMATION_TTL_MS), token, same)).toBe(false);
    const [expiry, mac] = token.split(".");
    expect(confirmsRecipient(ctx, `${Number(expiry) + 60_000}.${mac}`, same)).toBe(false);
    expect(confirmsRecipient(ctx, `${expiry}.${mac.slice(0, -1)}${mac.endsWith("A") ? "B" : "A"}`, same)).toBe(false);
    expect(confirmsRecipient(ctx, "", same)).toBe(false);
    expect(confirmsRecipient(ctx, "garbage", same)).toBe(false);
  });

  it("is not given for a key no institution holds: the merchant cannot confirm it", async () => {
    const ctx = await dashboardCtx();
    const looked = await lookupCashOutRecipient(ctx, { pixKey: "fa11ed00-0000-4000-8000-000000000000", source: "arara", amount: 100, formKey: "form-c" });
    expect(looked).toMatchObject({ checked: true, holder: null, confirmation: null });
  });
});
