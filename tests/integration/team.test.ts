/**
 * A merchant's team (lib/services/accounts/team.ts): invitations (token hashed, 48 h, one per e-mail,
 * the 20-person cap), their acceptance (once, even two at once; expired, unknown or used refused
 * alike; guesses throttled per address in the database, views of a right token not counted), removal
 * (ends the removed login's sign-in and sessions; never oneself nor the last; scoped by account), and
 * the team's history (one event per change, in the change's own transaction), and the limits on
 * invitations sent (per account per hour, per recipient e-mail per day, counted in the database).
 */
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { createHash } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { createAccount, findAccountById } from "@/lib/services/accounts/accounts";
import { findDashboardUser, verifyDashboardLogin, type DashboardUser } from "@/lib/services/accounts/dashboard-users";
import {
  acceptInvitation,
  cancelInvitation,
  findInvitation,
  INVALID_INVITATION_MESSAGE,
  INVITATION_TTL_MS,
  inviteTeamMember,
  listTeam,
  listTeamEvents,
  removeTeamMember,
  TEAM_HISTORY_SHOWN,
  TEAM_LIMIT,
  teamEventSentence,
  type TeamContext,
  type TokenGuessThrottle,
} from "@/lib/services/accounts/team";
import { INVITE_SEND_LIMITS, INVITE_TOKEN_LIMIT, invitationThrottle, inviteTokenThrottle } from "@/lib/auth/invite-throttle";
import { getDb } from "@/lib/db/client";
import { getAuthOptions } from "@/lib/auth/options";
import { sessionUserOf } from "@/lib/auth/current-user";
import { teamEvents, teamInvitations, users } from "@/lib/db/schema";
import { randomCpf } from "@/tests/helpers/accounts";
import { DEMO, ensureDemoMerchant } from "@/lib/services/accounts/demo-merchant";

const PASSWORD = "senha-forte-123";
let n = 0;
/** A fresh address per use: the throttle's counts of one test never reach another's. */
const ip = () => `10.77.${Math.floor(n / 250) % 250}.${(n++ % 250) + 1}`;
const free = (): TokenGuessThrottle => inviteTokenThrottle(ip());
const uniqueEmail = (tag: string) => `${tag}.${Date.now().toString(36)}.${Math.random().toString(36).slice(2, 8)}@example.com`;

/** A merchant with one login, as the dashboard session sees it. */
async function merchant(): Promise<TeamContext & { user: DashboardUser }> {
  const email = uniqueEmail("dono");
  const created = await createAccount({ name: "Loja Equipe", document: randomCpf(), email, password: PASSWORD });
  const user = (await verifyDashboardLogin(email, PASSWORD))!;
  const account = (await findAccountById(created.companyId))!;
  return { account, user, now: new Date() };
}

async function invite(ctx: TeamContext, email = uniqueEmail("colega"), name = "Maria Colega") {
  const r = await inviteTeamMember(ctx, { name, email }, invitationThrottle);
  if (!r.ok) throw new Error(r.message);
  return r;
}

const accept = (token: string, password = PASSWORD, throttle = free(), now?: Date) =>
  acceptInvitation(token, { name: "Maria Colega", password, confirmation: password }, throttle, now);

describe("inviting a colleague", () => {
  let owner: Awaited<ReturnType<typeof merchant>>;
  beforeAll(async () => {
    owner = await merchant();
  });

  it("gives a 32-byte base64url token once, as a link, and stores only its SHA-256 and a 48-hour expiry", async () => {
    const email = uniqueEmail("Colega").toUpperCase();
    const r = await invite(owner, email);
    expect(r.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(r.token, "base64url")).toHaveLength(32);
    expect(r.link).toBe(`http://localhost:3000/convite/${r.token}`);
    const [row] = await getDb().select().from(teamInvitations).where(eq(teamInvitations.id, r.invitation.id));
    expect(row.tokenHash).toBe(createHash("sha256").update(r.token).digest("hex"));
    expect(JSON.stringify(row)).not.toContain(r.token);
    expect(row.email).toBe(email.toLowerCase());
    expect(row.expiresAt.getTime() - owner.now.getTime()).toBe(INVITATION_TTL_MS);
    expect(INVITATION_TTL_MS).toBe(48 * 3600 * 1000);
    const team = await listTeam(owner);
    expect(team.members).toEqual([expect.objectContaining({ id: owner.user.id, you: true })]);
    expect(team.invitations.map((i) => i.email)).toContain(email.toLowerCase());
  });

  it("refuses an e-mail that already signs in, in this account or another, with a clear message", async () => {
    const r1 = await inviteTeamMember(owner, { name: "Eu Mesmo", email: owner.user.email.toUpperCase() }, invitationThrottle);
    expect(r1).toMatchObject({ ok: false, reason: "email_in_use", message: "Este e-mail já faz parte da equipe." });
    const other = await merchant();
    const r2 = await inviteTeamMember(owner, { name: "De Outra Conta", email: other.user.email }, invitationThrottle);
    expect(r2).toMatchObject({ ok: false, reason: "email_in_use", message: "Este e-mail já é usado para entrar em outra conta do Arara." });
    expect(r2.ok === false && r2.fieldErrors?.email).toBeTruthy();
  });

  it("refuses a bad name or e-mail field by field", async () => {
    const r = await inviteTeamMember(owner, { name: " ", email: "nao-e-email" }, invitationThrottle);
    expect(r).toMatchObject({ ok: false, reason: "invalid", fieldErrors: { name: expect.any(String), email: "Informe um e-mail válido." } });
  });

  it("inviting the same e-mail again replaces the pending invitation: the earlier link stops working", async () => {
    const email = uniqueEmail("repetido");
    const first = await invite(owner, email);
    const second = await invite(owner, email.toUpperCase(), "Nome Novo");
    const pending = (await listTeam(owner)).invitations.filter((i) => i.email === email);
    expect(pending).toEqual([expect.objectContaining({ id: second.invitation.id, name: "Nome Novo" })]);
    expect(await accept(first.token)).toMatchObject({ ok: false, reason: "invalid", message: INVALID_INVITATION_MESSAGE });
    expect(await accept(second.token)).toMatchObject({ ok: true, email });
  });
});

describe("accepting an invitation", () => {
  it("creates the login in the inviting account, which can then sign in; the token works once", async () => {
    const owner = await merchant();
    const inv = await invite(owner);
    const seen = await findInvitation(inv.token, free());
    expect(seen).toMatchObject({ ok: true, invitation: { email: inv.invitation.email, name: "Maria Colega", companyName: "Loja Equipe" } });
    const r = await accept(inv.token);
    expect(r).toMatchObject({ ok: true, email: inv.invitation.email, companyId: owner.account.id });
    const colleague = await verifyDashboardLogin(inv.invitation.email, PASSWORD);
    expect(colleague).toMatchObject({ companyId: owner.account.id, name: "Maria Colega" });
    expect((await listTeam(owner)).members.map((m) => m.email)).toEqual([owner.user.email, inv.invitation.email]);
    expect((await listTeam(owner)).invitations).toEqual([]);
    // Used: the page and a second acceptance say the same as for an unknown token.
    expect(await findInvitation(inv.token, free())).toMatchObject({ ok: false, reason: "invalid", message: INVALID_INVITATION_MESSAGE });
    expect(await accept(inv.token, "outra-senha-999")).toMatchObject({ ok: false, reason: "invalid", message: INVALID_INVITATION_MESSAGE });
    expect(await verifyDashboardLogin(inv.invitation.email, "outra-senha-999")).toBeNull();
  });

  it("two acceptances of one token at once: exactly one login is created", async () => {
    const owner = await merchant();
    const inv = await invite(owner);
    const results = await Promise.all([accept(inv.token, "senha-da-aba-1"), accept(inv.token, "senha-da-aba-2"), accept(inv.token, "senha-da-aba-3")]);
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(results.filter((r) => !r.ok).every((r) => !r.ok && r.reason === "invalid")).toBe(true);
    const rows = await getDb().select().from(users).where(eq(users.email, inv.invitation.email));
    expect(rows).toHaveLength(1);
    const winner = results.findIndex((r) => r.ok) + 1;
    expect(await verifyDashboardLogin(inv.invitation.email, `senha-da-aba-${winner}`)).not.toBeNull();
  });

  it("an expired token is refused with the same message, and creates nothing", async () => {
    const owner = await merchant();
    const inv = await invite(owner);
    const later = new Date(owner.now.getTime() + INVITATION_TTL_MS);
    expect(await findInvitation(inv.token, free(), later)).toMatchObject({ ok: false, reason: "invalid", message: INVALID_INVITATION_MESSAGE });
    expect(await accept(inv.token, PASSWORD, free(), later)).toMatchObject({ ok: false, reason: "invalid", message: INVALID_INVITATION_MESSAGE });
    expect(await verifyDashboardLogin(inv.invitation.email, PASSWORD)).toBeNull();
    // Not yet expired a second before.
    expect(await findInvitation(inv.token, free(), new Date(later.getTime() - 1000))).toMatchObject({ ok: true });
  });

  it("an unknown or malformed token is refused with the same message", async () => {
    for (const token of ["x".repeat(43), "curto", "", "../../etc/passwd"]) {
      expect(await findInvitation(token, free())).toMatchObject({ ok: false, reason: "invalid", message: INVALID_INVITATION_MESSAGE });
      expect(await accept(token)).toMatchObject({ ok: false, reason: "invalid", message: INVALID_INVITATION_MESSAGE });
    }
  });

  it("follows the sign-up's password rules, and a field error does not use the invitation", async () => {
    const owner = await merchant();
    const inv = await invite(owner);
    const short = await acceptInvitation(inv.token, { name: "Maria", password: "curta", confirmation: "curta" }, free());
    expect(short).toMatchObject({ ok: false, reason: "fields", fieldErrors: { password: "A senha precisa de pelo menos 8 caracteres." } });
    const differ = await acceptInvitation(inv.token, { name: "Maria", password: "senha-longa-1", confirmation: "senha-longa-2" }, free());
    expect(differ).toMatchObject({ ok: false, reason: "fields", fieldErrors: { confirmation: "As senhas não conferem." } });
    expect(await accept(inv.token)).toMatchObject({ ok: true });
  });

  it("an e-mail that signed up elsewhere meanwhile is refused clearly, and the invitation stays", async () => {
    const owner = await merchant();
    const inv = await invite(owner);
    await createAccount({ name: "Loja Paralela", document: randomCpf(), email: inv.invitation.email, password: PASSWORD });
    const r = await accept(inv.token, "senha-do-convite");
    expect(r).toMatchObject({ ok: false, reason: "email_in_use" });
    expect((await listTeam(owner)).invitations.map((i) => i.id)).toEqual([inv.invitation.id]);
  });

  it("guesses are throttled per address in the database, counted before the look-up; a right token gives its try back", async () => {
    const owner = await merchant();
    const inv = await invite(owner);
    const address = ip();
    // A right token costs nothing.
    for (let i = 0; i < INVITE_TOKEN_LIMIT.perAddress + 2; i++) expect(await findInvitation(inv.token, inviteTokenThrottle(address))).toMatchObject({ ok: true });
    // Wrong guesses, sent at once: no more than the limit are looked up.
    const guesses = await Promise.all(
      Array.from({ length: INVITE_TOKEN_LIMIT.perAddress + 5 }, (_, i) => findInvitation(`${"g".repeat(40)}${String(i).padStart(3, "0")}`, inviteTokenThrottle(address))),
    );
    expect(guesses.filter((g) => !g.ok && g.reason === "invalid")).toHaveLength(INVITE_TOKEN_LIMIT.perAddress);
    expect(guesses.filter((g) => !g.ok && g.reason === "throttled")).toHaveLength(5);
    // Locked now, even for the right token (the address cannot tell which are right); another address is not.
    const locked = await accept(inv.token, PASSWORD, inviteTokenThrottle(address));
    expect(locked).toMatchObject({ ok: false, reason: "throttled", message: expect.stringMatching(/^Muitas tentativas com convites inválidos .* tente de novo em 15 minutos\.$/) });
    expect(await accept(inv.token, PASSWORD, inviteTokenThrottle(ip()))).toMatchObject({ ok: true });
  });

  it(`viewing a valid invitation ${INVITE_TOKEN_LIMIT.perAddress + 1} times does not use up the address's guesses: accepting from there works; that many wrong tokens are throttled`, async () => {
    const owner = await merchant();
    const inv = await invite(owner);
    const invitee = ip();
    // The invitee reloads the page more times than the address may guess wrong.
    for (let i = 0; i <= INVITE_TOKEN_LIMIT.perAddress; i++) {
      expect(await findInvitation(inv.token, inviteTokenThrottle(invitee))).toMatchObject({ ok: true, invitation: { email: inv.invitation.email } });
    }
    expect(await accept(inv.token, PASSWORD, inviteTokenThrottle(invitee))).toMatchObject({ ok: true, email: inv.invitation.email });
    // The same number of wrong tokens from one address: the last one is throttled, and so is then a right one.
    const prober = ip();
    const wrong = [];
    for (let i = 0; i <= INVITE_TOKEN_LIMIT.perAddress; i++) wrong.push(await findInvitation(`${"w".repeat(40)}${String(i).padStart(3, "0")}`, inviteTokenThrottle(prober)));
    expect(wrong.slice(0, -1).every((w) => !w.ok && w.reason === "invalid")).toBe(true);
    expect(wrong.at(-1)).toMatchObject({ ok: false, reason: "throttled" });
    const other = await invite(owner);
    expect(await findInvitation(other.token, inviteTokenThrottle(prober))).toMatchObject({ ok: false, reason: "throttled" });
  });
});

describe("removing a colleague", () => {
  async function teamOfTwo() {
    const owner = await merchant();
    const inv = await invite(owner);
    await accept(inv.token);
    const colleague = (await verifyDashboardLogin(inv.invitation.email, PASSWORD))!;
    return { owner, colleague };
  }

  it("ends the removed login's sign-in and every session at once", async () => {
    const { owner, colleague } = await teamOfTwo();
    // The colleague's session token as issued at sign-in: next-auth's check of it (the jwt callback every
    // read of the session runs, /api/auth/session included) and the pages' context find the user.
    const jwt = getAuthOptions().callbacks!.jwt!;
    const token = { sub: String(colleague.id), companyId: colleague.companyId, sessionVersion: colleague.sessionVersion };
    const check = () => jwt({ token: { ...token }, account: null, user: undefined as never });
    expect(await check()).toMatchObject(token);
    expect((await sessionUserOf(token))?.user.id).toBe(colleague.id);
    expect(await removeTeamMember(owner, colleague.id)).toMatchObject({ ok: true, removed: { id: colleague.id, email: colleague.email } });
    // No user any more: the token is refused (next-auth then answers with no session and clears the
    // cookie instead of re-issuing it), the pages' check finds nothing, and the password no longer signs in.
    await expect(check()).rejects.toThrow("session ended");
    expect(await sessionUserOf(token)).toBeNull();
    expect(await findDashboardUser(colleague.id)).toBeNull();
    expect(await verifyDashboardLogin(colleague.email, PASSWORD)).toBeNull();
    expect((await listTeam(owner)).members.map((m) => m.id)).toEqual([owner.user.id]);
    // The owner's own session goes on.
    expect((await findDashboardUser(owner.user.id))?.user.sessionVersion).toBe(owner.user.sessionVersion);
  });

  it("never removes oneself nor the last login", async () => {
    const owner = await merchant();
    expect(await removeTeamMember(owner, owner.user.id)).toMatchObject({ ok: false, reason: "self" });
    const { owner: a, colleague } = await teamOfTwo();
    const b: TeamContext = { account: a.account, user: colleague, now: new Date() };
    expect(await removeTeamMember(b, colleague.id)).toMatchObject({ ok: false, reason: "self" });
    // Each removes the other at once: one wins, the account keeps one login.
    const both = await Promise.all([removeTeamMember(a, colleague.id), removeTeamMember(b, a.user.id)]);
    expect(both.filter((r) => r.ok)).toHaveLength(1);
    expect((await listTeam(a)).members).toHaveLength(1);
  });

  it("another account's user or invitation is not found, and nothing changes (BOLA)", async () => {
    const { owner, colleague } = await teamOfTwo();
    const stranger = await merchant();
    const theirInvite = await invite(stranger);
    expect(await removeTeamMember(owner, stranger.user.id)).toMatchObject({ ok: false, reason: "not_found" });
    expect(await removeTeamMember(stranger, colleague.id)).toMatchObject({ ok: false, reason: "not_found" });
    expect(await cancelInvitation(owner, theirInvite.invitation.id)).toMatchObject({ ok: false, reason: "not_found" });
    expect(await findDashboardUser(stranger.user.id)).not.toBeNull();
    expect(await findDashboardUser(colleague.id)).not.toBeNull();
    expect((await listTeam(stranger)).invitations.map((i) => i.id)).toEqual([theirInvite.invitation.id]);
    // The owner's list shows nothing of the stranger's.
    const mine = await listTeam(owner);
    expect(mine.members.map((m) => m.id).sort()).toEqual([owner.user.id, colleague.id].sort());
    expect(mine.invitations).toEqual([]);
  });

  it("cancelling an invitation ends its link", async () => {
    const owner = await merchant();
    const inv = await invite(owner);
    expect(await cancelInvitation(owner, inv.invitation.id)).toEqual({ ok: true });
    expect(await cancelInvitation(owner, inv.invitation.id)).toMatchObject({ ok: false, reason: "not_found" });
    expect(await accept(inv.token)).toMatchObject({ ok: false, reason: "invalid" });
  });
});

describe("the team's cap and the demo account", () => {
  it(`holds at most ${TEAM_LIMIT} users and pending invitations, even when invited at once`, async () => {
    const owner = await merchant();
    // 1 user + 4 accepted + the rest pending, invited all at once with a few too many.
    for (let i = 0; i < 4; i++) await accept((await invite(owner)).token);
    const results = await Promise.all(Array.from({ length: TEAM_LIMIT - 5 + 3 }, () => inviteTeamMember(owner, { name: "Mais Uma", email: uniqueEmail("cap") }, invitationThrottle)));
    expect(results.filter((r) => r.ok)).toHaveLength(TEAM_LIMIT - 5);
    const refused = results.filter((r) => !r.ok);
    expect(refused).toHaveLength(3);
    expect(refused[0]).toMatchObject({ reason: "limit", message: expect.stringContaining(`limite de ${TEAM_LIMIT} pessoas`) });
    const team = await listTeam(owner);
    expect(team.members.length + team.invitations.length).toBe(TEAM_LIMIT);
    // Accepting a pending one keeps the count; re-inviting a pending e-mail replaces it (not one more).
    const pending = team.invitations[0];
    expect(await inviteTeamMember(owner, { name: "Outra Vez", email: pending.email }, invitationThrottle)).toMatchObject({ ok: true });
    // Cancelling frees a place (an hour on: the 20 invitations above are the account's limit per hour).
    const again = (await listTeam(owner)).invitations[0];
    await cancelInvitation(owner, again.id);
    const hourLater = { ...owner, now: new Date(owner.now.getTime() + 3600_000) };
    expect(await inviteTeamMember(hourLater, { name: "Agora Cabe", email: uniqueEmail("cabe") }, invitationThrottle)).toMatchObject({ ok: true });
  });

  it("the shared demo account's team cannot be changed", async () => {
    await ensureDemoMerchant();
    const user = (await verifyDashboardLogin(DEMO.email, DEMO.password))!;
    const account = (await findAccountById(user.companyId))!;
    const ctx = { account, user, now: new Date() };
    expect(await inviteTeamMember(ctx, { name: "Visitante", email: uniqueEmail("demo") }, invitationThrottle)).toMatchObject({ ok: false, reason: "demo" });
    expect(await removeTeamMember(ctx, user.id + 1)).toMatchObject({ ok: false, reason: "demo" });
  });
});

describe("the team's history", () => {
  const eventsOf = (companyId: number) =>
    getDb().select().from(teamEvents).where(eq(teamEvents.companyId, companyId)).orderBy(teamEvents.id);
  const shape = (rows: Awaited<ReturnType<typeof eventsOf>>) => rows.map((e) => [e.action, e.actorUserId, e.actorName, e.targetEmail]);

  it("each change writes exactly one event: who did what to which e-mail, and when", async () => {
    const owner = await merchant();
    const email = uniqueEmail("historico");
    const t0 = Date.now();
    const first = await invite(owner, email.toUpperCase(), "Ana Histórico");
    expect(shape(await eventsOf(owner.account.id))).toEqual([["invited", owner.user.id, "Loja Equipe", email]]);
    await cancelInvitation(owner, first.invitation.id);
    const second = await invite(owner, email, "Ana Histórico");
    const joined = await accept(second.token);
    if (!joined.ok) throw new Error(joined.message);
    await removeTeamMember(owner, joined.userId);
    const rows = await eventsOf(owner.account.id);
    expect(shape(rows)).toEqual([
      ["invited", owner.user.id, "Loja Equipe", email],
      ["invitation_cancelled", owner.user.id, "Loja Equipe", email],
      ["invited", owner.user.id, "Loja Equipe", email],
      ["joined", joined.userId, "Maria Colega", email],
      ["removed", owner.user.id, "Loja Equipe", email],
    ]);
    for (const e of rows) expect(e.at.getTime()).toBeGreaterThanOrEqual(t0 - 5_000);
    // Newest first, as the page shows them, in Portuguese.
    const listed = await listTeamEvents(owner);
    expect(listed.map((e) => teamEventSentence(e))).toEqual([
      `Loja Equipe removeu o acesso de ${email}`,
      `Maria Colega (${email}) aceitou o convite e entrou na equipe`,
      `Loja Equipe convidou ${email}`,
      `Loja Equipe cancelou o convite de ${email}`,
      `Loja Equipe convidou ${email}`,
    ]);
    // Another account's history shows none of them.
    expect(await listTeamEvents(await merchant())).toEqual([]);
  });

  it("a refused change writes no event", async () => {
    const owner = await merchant();
    const inv = await invite(owner);
    const stranger = await merchant();
    const before = (await eventsOf(owner.account.id)).length;
    expect((await inviteTeamMember(owner, { name: "X", email: "ruim" }, invitationThrottle)).ok).toBe(false);
    expect((await inviteTeamMember(owner, { name: "Eu", email: owner.user.email }, invitationThrottle)).ok).toBe(false);
    expect((await cancelInvitation(owner, 987_654_321)).ok).toBe(false);
    expect((await removeTeamMember(owner, owner.user.id)).ok).toBe(false);
    expect((await removeTeamMember(owner, stranger.user.id)).ok).toBe(false);
    expect((await accept("x".repeat(43))).ok).toBe(false);
    expect((await acceptInvitation(inv.token, { name: "Maria", password: "curta", confirmation: "curta" }, free())).ok).toBe(false);
    await createAccount({ name: "Loja Paralela", document: randomCpf(), email: inv.invitation.email, password: PASSWORD });
    expect(await accept(inv.token)).toMatchObject({ ok: false, reason: "email_in_use" });
    expect(await eventsOf(owner.account.id)).toHaveLength(before);
    expect(await eventsOf(stranger.account.id)).toHaveLength(0);
  });

  it("the action is one of the four, by the database's own CHECK", async () => {
    const owner = await merchant();
    const row = (action: string) => ({ companyId: owner.account.id, actorUserId: owner.user.id, actorName: "X", action, targetEmail: "x@example.com" });
    const err = await getDb()
      .insert(teamEvents)
      .values(row("promoted"))
      .then(() => null, (e: { message: string; code?: string; cause?: { code?: string; message?: string } }) => e);
    expect(err, "an unknown action was stored").not.toBeNull();
    expect(`${err!.code ?? err!.cause?.code} ${err!.message} ${err!.cause?.message ?? ""}`).toMatch(/23514|team_events_action_check/);
    for (const action of ["invited", "invitation_cancelled", "joined", "removed"]) await getDb().insert(teamEvents).values(row(action));
    expect(await eventsOf(owner.account.id)).toHaveLength(4);
  });

  describe("the event is written in the change's transaction: when it cannot be written, the change does not happen", () => {
    // A trigger that refuses the events of the action named in team_events_refused: the insert of
    // the event fails after the change itself was made, in the same transaction.
    beforeAll(async () => {
      await getDb().execute(sql`create table team_events_refused (action text primary key)`);
      await getDb().execute(sql.raw(`create function team_events_refuse() returns trigger language plpgsql as $$
        begin
          if exists (select 1 from team_events_refused where action = new.action) then raise exception 'team event refused by the test'; end if;
          return new;
        end $$`));
      await getDb().execute(sql`create trigger team_events_refuse before insert on team_events for each row execute function team_events_refuse()`);
    });
    afterEach(async () => {
      await getDb().execute(sql`delete from team_events_refused`);
    });
    const refuse = (action: string) => getDb().execute(sql`insert into team_events_refused values (${action})`);

    it("invited: no invitation", async () => {
      const owner = await merchant();
      const email = uniqueEmail("sem-registro");
      await refuse("invited");
      await expect(inviteTeamMember(owner, { name: "Sem Registro", email }, invitationThrottle)).rejects.toThrow();
      expect((await listTeam(owner)).invitations).toEqual([]);
      expect(await eventsOf(owner.account.id)).toEqual([]);
    });

    it("invitation_cancelled: the invitation stays pending", async () => {
      const owner = await merchant();
      const inv = await invite(owner);
      await refuse("invitation_cancelled");
      await expect(cancelInvitation(owner, inv.invitation.id)).rejects.toThrow();
      expect((await listTeam(owner)).invitations.map((i) => i.id)).toEqual([inv.invitation.id]);
      expect((await eventsOf(owner.account.id)).map((e) => e.action)).toEqual(["invited"]);
    });

    it("joined: no login, the invitation stays", async () => {
      const owner = await merchant();
      const inv = await invite(owner);
      await refuse("joined");
      await expect(accept(inv.token)).rejects.toThrow();
      expect(await verifyDashboardLogin(inv.invitation.email, PASSWORD)).toBeNull();
      expect((await listTeam(owner)).invitations.map((i) => i.id)).toEqual([inv.invitation.id]);
      expect((await eventsOf(owner.account.id)).map((e) => e.action)).toEqual(["invited"]);
    });

    it("removed: the login stays and still signs in", async () => {
      const owner = await merchant();
      const inv = await invite(owner);
      const joined = await accept(inv.token);
      if (!joined.ok) throw new Error(joined.message);
      await refuse("removed");
      await expect(removeTeamMember(owner, joined.userId)).rejects.toThrow();
      expect(await verifyDashboardLogin(inv.invitation.email, PASSWORD)).toMatchObject({ id: joined.userId });
      expect(await getDb().select().from(teamEvents).where(and(eq(teamEvents.companyId, owner.account.id), eq(teamEvents.action, "removed")))).toEqual([]);
    });
  });

  it(`the page's list is bounded to the latest ${TEAM_HISTORY_SHOWN}, newest first`, async () => {
    const owner = await merchant();
    const emails: string[] = [];
    for (let i = 0; i < 8; i++) {
      const inv = await invite(owner, uniqueEmail(`lista${i}`));
      emails.push(inv.invitation.email);
      await cancelInvitation(owner, inv.invitation.id);
    }
    const listed = await listTeamEvents(owner);
    expect(listed).toHaveLength(TEAM_HISTORY_SHOWN);
    const expected = emails.flatMap((e) => [["invited", e], ["invitation_cancelled", e]]).reverse().slice(0, TEAM_HISTORY_SHOWN);
    expect(listed.map((e) => [e.action, e.targetEmail])).toEqual(expected);
  });
});

describe("limits on invitations sent (each one a mail through the merchant's SMTP)", () => {
  const HOUR = 3600_000;
  const DAY = 24 * HOUR;
  const at = <T extends TeamContext>(ctx: T, ms: number): T => ({ ...ctx, now: new Date(ms) });
  const eventsOf = (companyId: number) => getDb().select().from(teamEvents).where(eq(teamEvents.companyId, companyId)).orderBy(teamEvents.id);
  const invitationsTo = (email: string) => getDb().select().from(teamInvitations).where(eq(teamInvitations.email, email)).orderBy(teamInvitations.id);
  const tryInvite = (ctx: TeamContext, email: string) => inviteTeamMember(ctx, { name: "Pessoa Convidada", email }, invitationThrottle);
  const ACCOUNT_REFUSAL = /^Muitos convites em pouco tempo\. Tente de novo em (\d+) minutos?\.$/;

  it("the limits are 20 per account per hour and 3 per recipient e-mail per 24 hours", () => {
    expect(INVITE_SEND_LIMITS).toEqual({ perAccount: 20, perAccountWindowSeconds: 3600, perRecipient: 3, perRecipientWindowSeconds: 86400 });
  });

  it("the 21st invitation of an account within an hour is refused and writes nothing; refusals are not counted; the next hour it goes", async () => {
    const owner = await merchant();
    const t0 = owner.now.getTime();
    // 20 invitations to 10 addresses (each twice: the team's cap of 20 people is never reached).
    const emails = Array.from({ length: 10 }, (_, i) => uniqueEmail(`hora${i}`));
    for (const email of emails) for (let k = 0; k < 2; k++) expect(await tryInvite(at(owner, t0 + k * 60_000), email)).toMatchObject({ ok: true });
    const pendingBefore = (await listTeam(owner)).invitations;
    expect(pendingBefore).toHaveLength(10);
    expect(await eventsOf(owner.account.id)).toHaveLength(20);

    // The 21st, to a new address and to one already invited: refused with the wait, nothing written.
    const victim = uniqueEmail("vitima");
    for (const email of [victim, victim, victim, emails[0]]) {
      const r = await tryInvite(at(owner, t0 + 2 * 60_000), email);
      expect(r).toMatchObject({ ok: false, reason: "throttled", retryAfterSeconds: 3600 - 120 });
      expect(r.ok === false && r.message).toBe("Muitos convites em pouco tempo. Tente de novo em 58 minutos.");
    }
    expect(await invitationsTo(victim)).toEqual([]);
    expect(await eventsOf(owner.account.id)).toHaveLength(20);
    // The refused re-invitation did not replace the pending one (its deletion rolled back).
    expect((await listTeam(owner)).invitations).toEqual(pendingBefore);

    // One second before the hour ends: still refused, "1 minuto".
    const last = await tryInvite(at(owner, t0 + HOUR - 1000), victim);
    expect(last.ok === false && last.message).toMatch(ACCOUNT_REFUSAL);
    expect(last.ok === false && last.message).toContain("em 1 minuto.");
    // The hour over, a new window: and the four refusals above did not use the victim's 3 of the day.
    for (let k = 0; k < INVITE_SEND_LIMITS.perRecipient; k++) expect(await tryInvite(at(owner, t0 + HOUR), victim)).toMatchObject({ ok: true });
    expect(await invitationsTo(victim)).toHaveLength(1);
    expect(await eventsOf(owner.account.id)).toHaveLength(23);
  });

  it("the 4th invitation to one e-mail within 24 hours is refused, even from another account; other e-mails are not", async () => {
    const a = await merchant();
    const b = at(await merchant(), a.now.getTime());
    const t0 = a.now.getTime();
    const target = uniqueEmail("alvo");
    expect(await tryInvite(a, target)).toMatchObject({ ok: true });
    expect(await tryInvite(at(a, t0 + HOUR), target.toUpperCase())).toMatchObject({ ok: true });
    const third = await tryInvite(at(b, t0 + 2 * HOUR), target);
    expect(third).toMatchObject({ ok: true });
    const bEvents = (await eventsOf(b.account.id)).length;
    const aPending = (await listTeam(a)).invitations;

    // The 4th, from either account: refused on the e-mail field, with the wait in hours.
    for (const ctx of [at(b, t0 + 3 * HOUR), at(a, t0 + 3 * HOUR)]) {
      const r = await tryInvite(ctx, target);
      expect(r).toMatchObject({ ok: false, reason: "throttled", retryAfterSeconds: 21 * 3600 });
      if (r.ok) return;
      expect(r.message).toBe("Para não lotar a caixa de quem recebe, cada e-mail recebe poucos convites por dia; um novo convite para este e-mail só pode ser enviado em 21 horas.");
      expect(r.fieldErrors?.email).toBe(r.message);
    }
    // Nothing written: B's one invitation and A's pending one are the ones made before.
    expect((await invitationsTo(target)).map((i) => i.companyId).sort()).toEqual([a.account.id, b.account.id].sort());
    expect((await listTeam(at(a, t0 + 3 * HOUR))).invitations).toEqual(aPending);
    expect(await eventsOf(b.account.id)).toHaveLength(bEvents);
    // Another e-mail from the same account goes.
    expect(await tryInvite(at(b, t0 + 3 * HOUR), uniqueEmail("outro"))).toMatchObject({ ok: true });
    // 24 hours after the first: a new window.
    expect(await tryInvite(at(b, t0 + DAY - 1000), target)).toMatchObject({ ok: false, reason: "throttled", retryAfterSeconds: 1 });
    expect(await tryInvite(at(b, t0 + DAY), target)).toMatchObject({ ok: true });
  });

  it("the per-e-mail limit counts the mailbox: +tags, Gmail's dots and googlemail.com are the same address", async () => {
    const a = await merchant();
    const t0 = a.now.getTime();
    const local = `alvo${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
    const dotted = `${local.slice(0, 2)}.${local.slice(2)}`;
    for (const [k, variant] of [`${local}+loja@gmail.com`, `${dotted}@googlemail.com`, `${dotted.toUpperCase()}+x@GMAIL.com`].entries()) {
      expect(await tryInvite(at(a, t0 + k * HOUR), variant), variant).toMatchObject({ ok: true });
    }
    const r = await tryInvite(at(a, t0 + 3 * HOUR), `${local}@gmail.com`);
    expect(r).toMatchObject({ ok: false, reason: "throttled", retryAfterSeconds: 21 * 3600 });
    // Dots elsewhere are another mailbox: not counted with it.
    expect(await tryInvite(at(a, t0 + 3 * HOUR), `${dotted}@example.com`)).toMatchObject({ ok: true });
  });

  it("25 invitations at once from one account: exactly 20 are made, the others refused and leave nothing", async () => {
    const owner = await merchant();
    // 9 addresses, at most 3 invitations each: only the account's limit can refuse.
    const emails = Array.from({ length: 9 }, (_, i) => uniqueEmail(`rajada${i}`));
    const results = await Promise.all(Array.from({ length: 25 }, (_, i) => tryInvite(owner, emails[i % 9])));
    expect(results.filter((r) => r.ok)).toHaveLength(INVITE_SEND_LIMITS.perAccount);
    const refused = results.filter((r) => !r.ok);
    expect(refused).toHaveLength(5);
    for (const r of refused) expect(r).toMatchObject({ reason: "throttled", message: expect.stringMatching(ACCOUNT_REFUSAL) });
    const events = await eventsOf(owner.account.id);
    expect(events).toHaveLength(20);
    expect(events.every((e) => e.action === "invited")).toBe(true);
    // Each pending invitation is the last one made to its address.
    const pending = (await listTeam(owner)).invitations;
    const madeIds = new Set(results.flatMap((r) => (r.ok ? [r.invitation.id] : [])));
    expect(pending.every((i) => madeIds.has(i.id))).toBe(true);
    expect(new Set(pending.map((i) => i.email)).size).toBe(pending.length);
  });

  it("6 accounts inviting one e-mail at once: exactly 3 invitations are made", async () => {
    const accounts = await Promise.all(Array.from({ length: 6 }, () => merchant()));
    const target = uniqueEmail("disputado");
    const results = await Promise.all(accounts.map((ctx) => tryInvite(ctx, target)));
    expect(results.filter((r) => r.ok)).toHaveLength(INVITE_SEND_LIMITS.perRecipient);
    expect(results.filter((r) => !r.ok).every((r) => !r.ok && r.reason === "throttled" && r.fieldErrors?.email)).toBe(true);
    expect(await invitationsTo(target)).toHaveLength(3);
  });
});
