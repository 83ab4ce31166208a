import { createHmac } from "node:crypto";
import { derivedKey, safeEqual } from "@/lib/crypto";
import type { CashOutSource } from "@/lib/domain/cash-out";
import type { ServiceContext } from "../context";

/**
 * How long a looked-up recipient may be confirmed: the merchant read the holder's name a moment ago.
 * A confirmation older than this is looked up again (the key may have moved to another account).
 */
export const RECIPIENT_CONFIRMATION_TTL_MS = 15 * 60 * 1000;

/**
 * What a confirmation vouches for: this key, of this type, looked up for this source, for this amount
 * (in centavos) and this form (its idempotency key, lib/auth/form-key.ts: one form sends one
 * cash-out, so a confirmation makes at most one).
 */
export type ConfirmedRecipient = { type: string; key: string; source?: CashOutSource; amount: number; formKey: string };

function mac(ctx: Pick<ServiceContext, "account" | "actor">, r: ConfirmedRecipient, expiresAtMs: number): string {
  return createHmac("sha256", derivedKey("cash-out-recipient-confirmation"))
    .update(JSON.stringify([ctx.account.id, ctx.actor, r.type, r.key, r.source ?? "", r.amount, r.formKey, expiresAtMs]))
    .digest("base64url");
}

/**
 * The dashboard's proof that its user was shown the holder of this key (or told that the sending
 * processor cannot say who it is) before confirming a cash-out: made by the lookup, required by the
 * send, signed by the server (nothing kept), bound to the account, the user, the key, its type, the
 * source the lookup was made for, the amount and the form, valid for RECIPIENT_CONFIRMATION_TTL_MS.
 */
export function recipientConfirmation(ctx: Pick<ServiceContext, "account" | "actor" | "now">, r: ConfirmedRecipient): string {
  const expiresAtMs = ctx.now.getTime() + RECIPIENT_CONFIRMATION_TTL_MS;
  return `${expiresAtMs}.${mac(ctx, r, expiresAtMs)}`;
}

/** Whether `token` is this user's unexpired confirmation of exactly this recipient. */
export function confirmsRecipient(ctx: Pick<ServiceContext, "account" | "actor" | "now">, token: string, r: ConfirmedRecipient): boolean {
  const m = /^(\d{13,15})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!m) return false;
  const expiresAtMs = Number(m[1]);
  if (!Number.isSafeInteger(expiresAtMs) || expiresAtMs <= ctx.now.getTime()) return false;
  if (expiresAtMs > ctx.now.getTime() + RECIPIENT_CONFIRMATION_TTL_MS) return false;
  return safeEqual(m[2], mac(ctx, r, expiresAtMs));
}
