import { and, eq, sql } from "drizzle-orm";
import bcrypt from "bcryptjs";
import { safeEqual } from "@/lib/crypto";
import { getDb } from "@/lib/db/client";
import { users } from "@/lib/db/schema";
import type { Account } from "../context";
import type { DashboardUser } from "./dashboard-users";
import { DEMO, DISABLED_PUBLIC_KEY } from "./demo-merchant";

/**
 * The password rules of sign-up (app/(auth)/signup/form.ts, CreateAccountInput in accounts.ts): at
 * least 8 characters, at most 200. The hash is bcrypt with cost 10, as createAccount stores it and
 * verifyDashboardLogin checks it.
 */
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 200;
const BCRYPT_COST = 10;

/**
 * Counts the guesses of the current password (lib/auth/password-change-throttle.ts: the sign-in's
 * counters in the database, and one per user), passed in by the caller: a service does not reach up
 * into the auth layer.
 */
export type PasswordGuessThrottle = {
  /**
   * Counts this guess before it is checked (so guesses sent at once cannot all pass a check none of
   * them was counted in yet); the seconds to wait when it is one too many, else null.
   */
  reserve(): Promise<number | null>;
  /** The right current password: gives the guess back, and clears what the sign-in clears on success. */
  recordSuccess(): Promise<void>;
};

export type ChangePasswordInput = { currentPassword: string; newPassword: string; confirmation: string };

export type ChangePasswordResult =
  | { ok: true }
  | {
      ok: false;
      reason: "invalid" | "wrong_current" | "throttled" | "conflict" | "demo";
      /** A sentence for the merchant (pt-BR). */
      message: string;
      fieldErrors?: Partial<Record<keyof ChangePasswordInput, string>>;
      /** With `throttled`: seconds until the form may be tried again. */
      retryAfterSeconds?: number;
    };

const minutes = (seconds: number) => Math.max(1, Math.ceil(seconds / 60));

/**
 * The demo merchant's password is published (the sign-in page shows it when DEMO_MERCHANT is on, and
 * the README): changing it would lock every other visitor of a shared demo out and make both wrong.
 */
/** The demo account, enabled or disabled (demo-merchant.ts marks a disabled one's public key). */
export const isDemoAccount = (account: Pick<Account, "publicKey">) =>
  safeEqual(account.publicKey, DEMO.publicKey) || safeEqual(account.publicKey, DISABLED_PUBLIC_KEY);
export const DEMO_PASSWORD_MESSAGE =
  "A senha da conta de demonstração é pública e não pode ser trocada: ela aparece na página de entrada. Para ter uma senha só sua, saia e crie a sua conta (Criar conta, na página de entrada).";

/**
 * Changes the signed-in user's dashboard password. The new one follows the sign-up rules, is typed
 * twice and must differ from the current one; the current one must be right (checked as the login
 * checks it), and wrong guesses are throttled (`throttle`). The rules that do not look
 * at the stored password are checked first and cost no attempt.
 *
 * The user is the session's; the row is read by its id and its account, never by anything the form
 * sends. A change ends every session of the user (its session version moves on): someone who copied a
 * session cookie is out with the old password. The caller keeps the user's own session.
 */
export async function changeDashboardPassword(
  ctx: { user: Pick<DashboardUser, "id" | "companyId" | "email">; account: Pick<Account, "publicKey"> },
  input: ChangePasswordInput,
  throttle: PasswordGuessThrottle,
): Promise<ChangePasswordResult> {
  if (isDemoAccount(ctx.account)) return { ok: false, reason: "demo", message: DEMO_PASSWORD_MESSAGE };
  const current = String(input.currentPassword ?? "");
  const next = String(input.newPassword ?? "");
  const confirmation = String(input.confirmation ?? "");

  const fieldErrors: Partial<Record<keyof ChangePasswordInput, string>> = {};
  if (!current) fieldErrors.currentPassword = "Informe a senha atual.";
  if (next.length < PASSWORD_MIN_LENGTH) fieldErrors.newPassword = `A nova senha precisa de pelo menos ${PASSWORD_MIN_LENGTH} caracteres.`;
  else if (next.length > PASSWORD_MAX_LENGTH) fieldErrors.newPassword = `Use no máximo ${PASSWORD_MAX_LENGTH} caracteres.`;
  else if (current && next === current) fieldErrors.newPassword = "A nova senha precisa ser diferente da atual.";
  if (!fieldErrors.newPassword && confirmation !== next) fieldErrors.confirmation = "As senhas não conferem.";
  if (Object.keys(fieldErrors).length) return { ok: false, reason: "invalid", message: "Revise os campos destacados.", fieldErrors };

  const wait = await throttle.reserve();
  if (wait !== null) return throttled(wait);

  const mine = and(eq(users.id, ctx.user.id), eq(users.companyId, ctx.user.companyId));
  const [row] = await getDb().select({ passwordHash: users.passwordHash }).from(users).where(mine).limit(1);
  // Over the login's maximum, as verifyDashboardLogin: never sent to bcrypt, and wrong all the same.
  const right = !!row && current.length <= PASSWORD_MAX_LENGTH && (await bcrypt.compare(current, row.passwordHash));
  if (!row || !right) {
    return {
      ok: false,
      reason: "wrong_current",
      message: "A senha atual não confere. Nada foi alterado.",
      fieldErrors: { currentPassword: "Senha atual incorreta." },
    };
  }

  await throttle.recordSuccess();
  const passwordHash = await bcrypt.hash(next, BCRYPT_COST);
  // Only over the hash just checked: a change made meanwhile (another tab) is not overwritten unseen.
  // Every session of the user ends with the old password (a copied cookie too): the caller issues
  // its own session again (lib/auth/reissue-session.ts), as a secret key rotation does.
  const updated = await getDb()
    .update(users)
    .set({ passwordHash, sessionVersion: sql`${users.sessionVersion} + 1` })
    .where(and(mine, eq(users.passwordHash, row.passwordHash)))
    .returning({ id: users.id });
  if (!updated.length) {
    return { ok: false, reason: "conflict", message: "A senha mudou enquanto você digitava. Recarregue a página e tente de novo." };
  }
  return { ok: true };
}

function throttled(seconds: number): ChangePasswordResult {
  const m = minutes(seconds);
  return {
    ok: false,
    reason: "throttled",
    message: `Muitas tentativas com a senha atual errada. Por segurança, tente de novo em ${m} ${m === 1 ? "minuto" : "minutos"}.`,
    retryAfterSeconds: seconds,
  };
}
