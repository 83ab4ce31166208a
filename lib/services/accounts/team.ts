/**
 * A merchant's team (dashboard Configurações → Equipe): the account's dashboard logins, invitations
 * to join it, their acceptance and the removal of a login.
 *
 * - An invitation carries a random token (32 bytes, base64url) shown once to the inviter as a link;
 *   only its SHA-256 is stored, with an expiry 48 hours on.
 * - Accepting deletes the invitation (`DELETE ... RETURNING`) in the transaction that creates the user:
 *   of two acceptances at once, one finds the row and the other finds nothing. Guesses of a token are
 *   counted (the caller's throttle, in the database) before the token is looked up.
 * - Removing a login deletes its row: it can no longer sign in, and every session it holds ends on its
 *   next request (lib/auth/session.ts reads the user on every request and finds none).
 * - Invitations, acceptances and removals of one account are serialized by a lock on the account's row
 *   (`FOR NO KEY UPDATE`: it does not block the inserts of charges that reference it), so the cap
 *   (users + pending invitations) and "never the last user" hold under concurrent requests.
 * - Each invitation, cancellation, acceptance and removal writes one row of the team's history
 *   (team_events) in its own transaction: the change and its record commit together or not at all.
 * - With SMTP configured, the invitation's link is mailed to the colleague once the invitation has
 *   committed (a mail that fails is said to the inviter, who can copy the link; the link is not logged).
 *   The mail's subject is fixed: the company name (free text) is only in its body, escaped.
 * - Invitations sent are limited per account and per recipient e-mail (any account), counted in the
 *   database (the caller's InvitationThrottle) in the invitation's own transaction, once every other
 *   check has passed: an invitation over a limit rolls back whole (no row, no event, no mail, its
 *   count taken back), so the counts are of invitations actually sent.
 */
import { randomBytes } from "node:crypto";
import { and, asc, eq, gt, lte, sql } from "drizzle-orm";
import bcrypt from "bcryptjs";
import { z } from "zod";
import { getDb, type Queryable } from "@/lib/db/client";
import { companies, teamEvents, teamInvitations, users, type TEAM_EVENT_ACTIONS } from "@/lib/db/schema";
import { safeEqual, sha256Hex } from "@/lib/crypto";
import { getEnv } from "@/lib/env";
import { getLogger, scrub } from "@/lib/logger";
import { sendMail } from "@/lib/mail/transport";
import type { Account } from "../context";
import { isDemoAccount, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "./change-password";

/** Users plus pending invitations an account may have. */
export const TEAM_LIMIT = 20;
export const INVITATION_TTL_MS = 48 * 3600 * 1000;
const BCRYPT_COST = 10;
const TOKEN_RE = /^[A-Za-z0-9_-]{43}$/;

export const TEAM_DEMO_MESSAGE =
  "A conta de demonstração é compartilhada e sua equipe não pode ser alterada. Para convidar colegas, crie a sua conta (Criar conta, na página de entrada).";
export const INVALID_INVITATION_MESSAGE =
  "Este convite não é válido: ele pode ter expirado, já ter sido usado ou ter sido cancelado. Peça um novo convite a quem convidou você.";

export type TeamContext = { account: Pick<Account, "id" | "publicKey">; user: { id: number }; now: Date };

export type TeamMember = { id: number; name: string; email: string; createdAt: Date; you: boolean };
export type PendingInvitation = { id: number; name: string; email: string; createdAt: Date; expiresAt: Date };

/** Counts guesses of a token (by address, in the database), passed in by the caller: a service does not reach up into the http layer. */
export type TokenGuessThrottle = {
  /** Counts this try before the token is looked up: the seconds to wait when it is one too many, else null. */
  reserve(): Promise<number | null>;
  /** A right token: gives the try back. */
  recordSuccess(): Promise<void>;
};

/**
 * Counts invitations sent (per account, per recipient e-mail; in the database), passed in by the
 * caller as TokenGuessThrottle is.
 */
export type InvitationThrottle = {
  /**
   * Counts this invitation in `tx` (an atomic upsert whose count commits or rolls back with the
   * invitation): the limit it goes over and the seconds until that limit's window ends, else null.
   */
  take(tx: Queryable, p: { companyId: number; email: string; now: Date }): Promise<{ over: "account" | "recipient"; seconds: number } | null>;
};

type Failure<R extends string> = { ok: false; reason: R; message: string; fieldErrors?: Record<string, string>; retryAfterSeconds?: number };

export const inviteLinkOf = (token: string) => `${getEnv().baseUrl}/convite/${token}`;
const newToken = () => randomBytes(32).toString("base64url");
const tokenHashOf = (token: string) => sha256Hex(token);
const minutes = (seconds: number) => Math.max(1, Math.ceil(seconds / 60));
/** A wait in words: minutes up to an hour, hours beyond ("1 minuto", "45 minutos", "3 horas"). */
function waitInWords(seconds: number): string {
  const m = minutes(seconds);
  if (m <= 60) return `${m} ${m === 1 ? "minuto" : "minutos"}`;
  const h = Math.ceil(m / 60);
  return `${h} horas`;
}

/** An invitation over a sending limit: thrown inside the transaction so that it rolls back whole. */
class InvitationThrottled extends Error {
  constructor(readonly over: "account" | "recipient", readonly seconds: number) {
    super("invitation throttled");
  }
}

function invitationThrottled(e: InvitationThrottled): Failure<"throttled"> {
  const wait = waitInWords(e.seconds);
  if (e.over === "account") {
    return { ok: false, reason: "throttled", message: `Muitos convites em pouco tempo. Tente de novo em ${wait}.`, retryAfterSeconds: e.seconds };
  }
  const text = `Para não lotar a caixa de quem recebe, cada e-mail recebe poucos convites por dia; um novo convite para este e-mail só pode ser enviado em ${wait}.`;
  return { ok: false, reason: "throttled", message: text, fieldErrors: { email: text }, retryAfterSeconds: e.seconds };
}

function throttled<R extends string>(reason: R, seconds: number): Failure<R> {
  const m = minutes(seconds);
  return {
    ok: false,
    reason,
    message: `Muitas tentativas com convites inválidos a partir desta rede. Por segurança, tente de novo em ${m} ${m === 1 ? "minuto" : "minutos"}.`,
    retryAfterSeconds: seconds,
  };
}

/** Locks the account's row for the rest of the transaction: one team change of an account at a time. */
async function lockAccount(tx: Queryable, companyId: number) {
  await tx.execute(sql`select id from ${companies} where ${companies.id} = ${companyId} for no key update`);
}

export type TeamEventAction = (typeof TEAM_EVENT_ACTIONS)[number];
export type TeamEvent = { id: number; action: TeamEventAction; actorUserId: number; actorName: string; targetEmail: string; at: Date };
/** How many of the latest events the Team page shows. */
export const TEAM_HISTORY_SHOWN = 15;

/** One row of the team's history, written by the transaction of the change it records. */
async function recordTeamEvent(tx: Queryable, e: { companyId: number; actor: { id: number; name: string }; action: TeamEventAction; targetEmail: string }) {
  await tx.insert(teamEvents).values({ companyId: e.companyId, actorUserId: e.actor.id, actorName: e.actor.name, action: e.action, targetEmail: e.targetEmail });
}

/** The signed-in login as it is now in the account (the actor of a change), or undefined when it was removed meanwhile. */
async function actorIn(tx: Queryable, companyId: number, userId: number): Promise<{ id: number; name: string } | undefined> {
  const [row] = await tx.select({ id: users.id, name: users.name }).from(users).where(and(eq(users.id, userId), eq(users.companyId, companyId))).limit(1);
  return row;
}

const ACTOR_GONE = "Seu acesso a esta conta foi removido.";

/** The account's latest team events, newest first (at most `limit`). */
export async function listTeamEvents(ctx: Pick<TeamContext, "account">, limit = TEAM_HISTORY_SHOWN): Promise<TeamEvent[]> {
  const rows = await getDb()
    .select({ id: teamEvents.id, action: teamEvents.action, actorUserId: teamEvents.actorUserId, actorName: teamEvents.actorName, targetEmail: teamEvents.targetEmail, at: teamEvents.at })
    .from(teamEvents)
    .where(eq(teamEvents.companyId, ctx.account.id))
    .orderBy(sql`${teamEvents.at} desc`, sql`${teamEvents.id} desc`)
    .limit(Math.max(1, Math.min(100, Math.trunc(limit))));
  return rows.map((r) => ({ ...r, action: r.action as TeamEventAction }));
}

/** An event as a sentence of the Team page's history (pt-BR, without the date). */
export function teamEventSentence(e: Pick<TeamEvent, "action" | "actorName" | "targetEmail">): string {
  switch (e.action) {
    case "invited":
      return `${e.actorName} convidou ${e.targetEmail}`;
    case "invitation_cancelled":
      return `${e.actorName} cancelou o convite de ${e.targetEmail}`;
    case "joined":
      return `${e.actorName} (${e.targetEmail}) aceitou o convite e entrou na equipe`;
    case "removed":
      return `${e.actorName} removeu o acesso de ${e.targetEmail}`;
  }
}

/** The account's users (oldest first) and pending invitations (the ones not expired, newest first). */
export async function listTeam(ctx: TeamContext): Promise<{ members: TeamMember[]; invitations: PendingInvitation[] }> {
  const db = getDb();
  const [members, invitations] = await Promise.all([
    db
      .select({ id: users.id, name: users.name, email: users.email, createdAt: users.createdAt })
      .from(users)
      .where(eq(users.companyId, ctx.account.id))
      .orderBy(asc(users.createdAt), asc(users.id)),
    db
      .select({ id: teamInvitations.id, name: teamInvitations.name, email: teamInvitations.email, createdAt: teamInvitations.createdAt, expiresAt: teamInvitations.expiresAt })
      .from(teamInvitations)
      .where(and(eq(teamInvitations.companyId, ctx.account.id), gt(teamInvitations.expiresAt, ctx.now)))
      .orderBy(sql`${teamInvitations.createdAt} desc`, sql`${teamInvitations.id} desc`),
  ]);
  return { members: members.map((m) => ({ ...m, you: m.id === ctx.user.id })), invitations };
}

const InviteInput = z.object({
  name: z.string().trim().min(2, "Informe o nome (pelo menos 2 letras).").max(120, "Use no máximo 120 caracteres."),
  email: z.string().trim().toLowerCase().max(254, "Use no máximo 254 caracteres.").pipe(z.email("Informe um e-mail válido.")),
});
export type InviteInput = z.input<typeof InviteInput>;

export type InviteResult =
  | {
      ok: true;
      token: string;
      link: string;
      invitation: PendingInvitation;
      /** The link was handed to the SMTP server (SMTP configured and the server took it). */
      mailed: boolean;
      /** SMTP is configured but the mail could not be sent: the inviter sends the link by hand. */
      mailFailed: boolean;
    }
  | Failure<"invalid" | "email_in_use" | "limit" | "demo" | "not_found" | "throttled">;

/**
 * Invites a colleague to the signed-in account. The token goes back this once (for the link); only
 * its hash is stored. An e-mail that already signs in (to any account) is refused; inviting an e-mail
 * again replaces its pending invitation (the earlier link stops working). With SMTP configured, the
 * link is mailed to the colleague after the invitation has committed. Each invitation is counted by
 * `throttle` (per account and per recipient, at ctx.now) last, in its transaction: one over a limit
 * is refused ("throttled") and leaves nothing.
 */
export async function inviteTeamMember(ctx: TeamContext, raw: InviteInput, throttle: InvitationThrottle): Promise<InviteResult> {
  if (isDemoAccount(ctx.account)) return { ok: false, reason: "demo", message: TEAM_DEMO_MESSAGE };
  const parsed = InviteInput.safeParse({ name: String(raw.name ?? ""), email: String(raw.email ?? "") });
  if (!parsed.success) {
    const fieldErrors: Record<string, string> = {};
    for (const i of parsed.error.issues) fieldErrors[String(i.path[0])] ??= i.message;
    return { ok: false, reason: "invalid", message: "Revise os campos destacados.", fieldErrors };
  }
  const { name, email } = parsed.data;
  const token = newToken();
  const expiresAt = new Date(ctx.now.getTime() + INVITATION_TTL_MS);
  const companyId = ctx.account.id;

  type Created = { ok: true; invitation: PendingInvitation; inviterName: string; companyName: string } | Exclude<InviteResult, { ok: true }>;
  const created = await getDb().transaction(async (tx): Promise<Created> => {
    await lockAccount(tx, companyId);
    const actor = await actorIn(tx, companyId, ctx.user.id);
    if (!actor) return notFound(ACTOR_GONE);
    const [taken] = await tx.select({ companyId: users.companyId }).from(users).where(sql`lower(${users.email}) = ${email}`).limit(1);
    if (taken) {
      const text = taken.companyId === companyId ? "Este e-mail já faz parte da equipe." : "Este e-mail já é usado para entrar em outra conta do Arara.";
      return { ok: false, reason: "email_in_use", message: text, fieldErrors: { email: text } };
    }
    // The expired invitations of the account and the one this replaces go first: neither counts.
    await tx.delete(teamInvitations).where(and(eq(teamInvitations.companyId, companyId), lte(teamInvitations.expiresAt, ctx.now)));
    await tx.delete(teamInvitations).where(and(eq(teamInvitations.companyId, companyId), sql`lower(${teamInvitations.email}) = ${email}`));
    const [{ members }] = await tx.select({ members: sql<number>`count(*)::int` }).from(users).where(eq(users.companyId, companyId));
    const [{ pending }] = await tx.select({ pending: sql<number>`count(*)::int` }).from(teamInvitations).where(eq(teamInvitations.companyId, companyId));
    const n = Number(members) + Number(pending);
    if (Number(n) >= TEAM_LIMIT) {
      return {
        ok: false,
        reason: "limit",
        message: `A equipe chegou ao limite de ${TEAM_LIMIT} pessoas (contando os convites pendentes). Remova alguém ou cancele um convite para convidar outra pessoa.`,
      };
    }
    // Counted last, once nothing else refuses it: over a limit, the throw rolls back the count with
    // the deletions above (the invitation it would replace stays).
    const over = await throttle.take(tx, { companyId, email, now: ctx.now });
    if (over) throw new InvitationThrottled(over.over, over.seconds);
    const [row] = await tx
      .insert(teamInvitations)
      .values({ companyId, email, name, tokenHash: tokenHashOf(token), invitedBy: ctx.user.id, expiresAt, createdAt: ctx.now })
      .returning();
    await recordTeamEvent(tx, { companyId, actor, action: "invited", targetEmail: email });
    const [company] = await tx.select({ name: companies.name }).from(companies).where(eq(companies.id, companyId));
    return {
      ok: true,
      invitation: { id: row.id, name: row.name, email: row.email, createdAt: row.createdAt, expiresAt: row.expiresAt },
      inviterName: actor.name,
      companyName: company.name,
    };
  }).catch((err: unknown): Created => {
    if (err instanceof InvitationThrottled) return invitationThrottled(err);
    throw err;
  });
  if (!created.ok) return created;
  const { invitation, inviterName, companyName } = created;
  const link = inviteLinkOf(token);
  const { mailed, mailFailed } = await mailInvitation(companyId, invitation, { inviterName, companyName, link });
  return { ok: true, token, link, invitation, mailed, mailFailed };
}

/** Mails the invitation's link when SMTP is configured; a failure is logged (without the link) and reported, never thrown. */
async function mailInvitation(companyId: number, invitation: PendingInvitation, p: { inviterName: string; companyName: string; link: string }) {
  if (!getEnv().smtpUrl) return { mailed: false, mailFailed: false };
  try {
    const mailed = await sendMail(teamInviteMail({ to: invitation.email, name: invitation.name, inviterName: p.inviterName, companyName: p.companyName, link: p.link, expiresAt: invitation.expiresAt }));
    return { mailed, mailFailed: false };
  } catch (err) {
    getLogger().warn({ companyId, invitationId: invitation.id, err: scrub(err instanceof Error ? err.message : String(err)) }, "team invitation e-mail not sent");
    return { mailed: false, mailFailed: true };
  }
}

/** Cancels a pending invitation of the signed-in account (another account's id: not found). */
export async function cancelInvitation(ctx: TeamContext, invitationId: number): Promise<{ ok: true } | Failure<"not_found" | "demo">> {
  if (isDemoAccount(ctx.account)) return { ok: false, reason: "demo", message: TEAM_DEMO_MESSAGE };
  if (!Number.isSafeInteger(invitationId) || invitationId <= 0) return notFound("Convite não encontrado nesta conta.");
  const companyId = ctx.account.id;
  return getDb().transaction(async (tx) => {
    await lockAccount(tx, companyId);
    const actor = await actorIn(tx, companyId, ctx.user.id);
    if (!actor) return notFound(ACTOR_GONE);
    const [deleted] = await tx
      .delete(teamInvitations)
      .where(and(eq(teamInvitations.id, invitationId), eq(teamInvitations.companyId, companyId)))
      .returning({ id: teamInvitations.id, email: teamInvitations.email });
    if (!deleted) return notFound("Convite não encontrado nesta conta (ele pode já ter sido aceito ou cancelado).");
    await recordTeamEvent(tx, { companyId, actor, action: "invitation_cancelled", targetEmail: deleted.email });
    return { ok: true as const };
  });
}

const notFound = (message: string): Failure<"not_found"> => ({ ok: false, reason: "not_found", message });

/**
 * Removes another login of the signed-in account. Its row is deleted: it cannot sign in any more, and
 * its sessions end on their next request. Never oneself, never the last login; another account's
 * user id is not found.
 */
export async function removeTeamMember(ctx: TeamContext, userId: number): Promise<{ ok: true; removed: { id: number; email: string } } | Failure<"not_found" | "self" | "last" | "demo">> {
  if (isDemoAccount(ctx.account)) return { ok: false, reason: "demo", message: TEAM_DEMO_MESSAGE };
  if (!Number.isSafeInteger(userId) || userId <= 0) return notFound("Pessoa não encontrada nesta conta.");
  if (userId === ctx.user.id) return { ok: false, reason: "self", message: "Você não pode remover o seu próprio acesso. Peça a outra pessoa da equipe." };
  const companyId = ctx.account.id;
  return getDb().transaction(async (tx) => {
    await lockAccount(tx, companyId);
    const team = await tx.select({ id: users.id, name: users.name }).from(users).where(eq(users.companyId, companyId));
    const ids = new Set(team.map((u) => u.id));
    if (!ids.has(userId)) return notFound("Pessoa não encontrada nesta conta (ela pode já ter sido removida).");
    // The one asking was removed meanwhile (by the one being removed): nothing is done.
    const actor = team.find((u) => u.id === ctx.user.id);
    if (!actor) return notFound(ACTOR_GONE);
    if (ids.size < 2) return { ok: false as const, reason: "last" as const, message: "A conta precisa de pelo menos uma pessoa com acesso." };
    const [removed] = await tx
      .delete(users)
      .where(and(eq(users.id, userId), eq(users.companyId, companyId)))
      .returning({ id: users.id, email: users.email });
    if (!removed) return notFound("Pessoa não encontrada nesta conta.");
    await recordTeamEvent(tx, { companyId, actor, action: "removed", targetEmail: removed.email });
    return { ok: true as const, removed };
  });
}

export type InvitationView = { name: string; email: string; companyName: string; expiresAt: Date };

/** A pending invitation by its token, for the acceptance page (throttled per address). */
export async function findInvitation(token: string, throttle: TokenGuessThrottle, now = new Date()): Promise<{ ok: true; invitation: InvitationView } | Failure<"invalid" | "throttled">> {
  const wait = await throttle.reserve();
  if (wait !== null) return throttled("throttled", wait);
  const found = TOKEN_RE.test(token) ? await pendingByToken(getDb(), token, now) : undefined;
  if (!found) return { ok: false, reason: "invalid", message: INVALID_INVITATION_MESSAGE };
  await throttle.recordSuccess();
  return { ok: true, invitation: found };
}

async function pendingByToken(db: Queryable, token: string, now: Date): Promise<InvitationView | undefined> {
  const [row] = await db
    .select({ name: teamInvitations.name, email: teamInvitations.email, expiresAt: teamInvitations.expiresAt, companyName: companies.name })
    .from(teamInvitations)
    .innerJoin(companies, eq(companies.id, teamInvitations.companyId))
    .where(and(eq(teamInvitations.tokenHash, tokenHashOf(token)), gt(teamInvitations.expiresAt, now)))
    .limit(1);
  return row;
}

export type AcceptInput = { name: string; password: string; confirmation: string };
export type AcceptResult = { ok: true; email: string; companyId: number; userId: number } | Failure<"invalid" | "throttled" | "fields" | "email_in_use">;

/**
 * Accepts an invitation: creates the login in the inviting account with this name and password (the
 * sign-up's rules) and consumes the invitation, in one transaction. An unknown, expired or used token
 * gets the same answer.
 */
export async function acceptInvitation(token: string, input: AcceptInput, throttle: TokenGuessThrottle, now = new Date()): Promise<AcceptResult> {
  const name = String(input.name ?? "").trim();
  const password = String(input.password ?? "");
  const confirmation = String(input.confirmation ?? "");
  const fieldErrors: Record<string, string> = {};
  if (name.length < 2) fieldErrors.name = "Informe o seu nome (pelo menos 2 letras).";
  else if (name.length > 120) fieldErrors.name = "Use no máximo 120 caracteres.";
  if (password.length < PASSWORD_MIN_LENGTH) fieldErrors.password = `A senha precisa de pelo menos ${PASSWORD_MIN_LENGTH} caracteres.`;
  else if (password.length > PASSWORD_MAX_LENGTH) fieldErrors.password = `Use no máximo ${PASSWORD_MAX_LENGTH} caracteres.`;
  else if (!safeEqual(confirmation, password)) fieldErrors.confirmation = "As senhas não conferem.";

  const wait = await throttle.reserve();
  if (wait !== null) return throttled("throttled", wait);
  const invalid: AcceptResult = { ok: false, reason: "invalid", message: INVALID_INVITATION_MESSAGE };
  if (!TOKEN_RE.test(token) || !(await pendingByToken(getDb(), token, now))) return invalid;
  await throttle.recordSuccess();
  if (Object.keys(fieldErrors).length) return { ok: false, reason: "fields", message: "Revise os campos destacados.", fieldErrors };

  // Hashed before the transaction opens: bcrypt's work holds no lock.
  const passwordHash = await bcrypt.hash(password, BCRYPT_COST);
  const tokenHash = tokenHashOf(token);
  try {
    return await getDb().transaction(async (tx): Promise<AcceptResult> => {
      // The account's lock first, as an invitation takes it (the same order: no deadlock), then the
      // invitation consumed: of two acceptances at once, the second finds no row.
      const [target] = await tx.select({ companyId: teamInvitations.companyId }).from(teamInvitations).where(eq(teamInvitations.tokenHash, tokenHash)).limit(1);
      if (!target) return invalid;
      await lockAccount(tx, target.companyId);
      const [inv] = await tx
        .delete(teamInvitations)
        .where(and(eq(teamInvitations.tokenHash, tokenHash), gt(teamInvitations.expiresAt, now)))
        .returning();
      if (!inv) return invalid;
      const [taken] = await tx.select({ id: users.id }).from(users).where(sql`lower(${users.email}) = ${inv.email.toLowerCase()}`).limit(1);
      if (taken) throw new EmailInUse();
      const [{ n }] = await tx.select({ n: sql<number>`count(*)::int` }).from(users).where(eq(users.companyId, inv.companyId));
      if (Number(n) >= TEAM_LIMIT) throw new TeamFull();
      const [user] = await tx
        .insert(users)
        .values({ companyId: inv.companyId, email: inv.email.toLowerCase(), name, passwordHash, createdAt: now })
        .returning({ id: users.id, email: users.email });
      await recordTeamEvent(tx, { companyId: inv.companyId, actor: { id: user.id, name }, action: "joined", targetEmail: user.email });
      return { ok: true, email: user.email, companyId: inv.companyId, userId: user.id };
    });
  } catch (err) {
    // Rolled back: the invitation stays, so the inviter sees it and can cancel it.
    if (err instanceof EmailInUse || isUniqueViolation(err)) {
      return { ok: false, reason: "email_in_use", message: "O e-mail deste convite já é usado para entrar no Arara. Entre com ele ou peça um convite para outro e-mail." };
    }
    if (err instanceof TeamFull) {
      return { ok: false, reason: "invalid", message: `A equipe desta conta chegou ao limite de ${TEAM_LIMIT} pessoas. Peça a quem convidou você para liberar um lugar.` };
    }
    throw err;
  }
}

class EmailInUse extends Error {}
class TeamFull extends Error {}

function isUniqueViolation(err: unknown): boolean {
  for (let e: unknown = err; e && typeof e === "object"; e = (e as { cause?: unknown }).cause) {
    if ((e as { code?: unknown }).code === "23505") return true;
  }
  return false;
}

export const TEAM_INVITE_SUBJECT = "Convite para uma equipe no Arara";

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

/** The invitation e-mail (pt-BR), sent by the caller when SMTP is configured. */
export function teamInviteMail(p: { to: string; name: string; inviterName: string; companyName: string; link: string; expiresAt: Date }) {
  const until = new Intl.DateTimeFormat("pt-BR", { dateStyle: "short", timeStyle: "short", timeZone: "America/Sao_Paulo" }).format(p.expiresAt);
  const first = p.name.trim().split(/\s+/)[0] ?? "";
  const text = [
    `Olá, ${first}!`,
    "",
    `${p.inviterName} convidou você para acessar o painel de ${p.companyName} no Arara.`,
    "",
    `Para aceitar, abra o link abaixo e crie a sua senha (válido até ${until}, horário de Brasília, e só uma vez):`,
    p.link,
    "",
    "Se você não esperava este convite, ignore este e-mail.",
  ].join("\n");
  const html = `<!doctype html><html lang="pt-BR"><body style="font-family:system-ui,sans-serif;color:#111827">
<p>Olá, ${esc(first)}!</p>
<p>${esc(p.inviterName)} convidou você para acessar o painel de <strong>${esc(p.companyName)}</strong> no Arara.</p>
<p><a href="${esc(p.link)}">Aceitar o convite e criar a sua senha</a></p>
<p style="color:#4b5563">O link vale até ${esc(until)} (horário de Brasília) e pode ser usado uma só vez. Se você não esperava este convite, ignore este e-mail.</p>
</body></html>`;
  // A fixed subject: the company name is free text its owner writes, and the subject is what the
  // recipient reads before anything else (it must not carry a sentence of the sender's choosing).
  return { to: p.to, subject: TEAM_INVITE_SUBJECT, text, html };
}
