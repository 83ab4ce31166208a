/**
 * The team invitation e-mail (lib/services/accounts/team.ts), through SMTP (SMTP_URL) to a real local
 * SMTP server that keeps what it receives: one mail, to the invited address, in Portuguese, whose
 * link opens the invitation and accepts it (the token read from the mail itself); the token is in no
 * row of the database, only its SHA-256. The subject is fixed (the company name, free text, is only in
 * the body, escaped). An invitation over a sending limit mails nothing. A mail that cannot be sent
 * leaves the invitation (the inviter is told and copies the link).
 */
import { startSmtpReceiver, type SmtpReceiver } from "../helpers/smtp-receiver";

const receiver: SmtpReceiver = await startSmtpReceiver(0);
process.env.SMTP_URL = receiver.url;
process.env.MAIL_FROM = "Arara Testes <equipe@arara.test>";

const { afterAll, beforeAll, describe, expect, it } = await import("vitest");
const { createHash } = await import("node:crypto");
const { eq, sql } = await import("drizzle-orm");
const { createAccount, findAccountById } = await import("@/lib/services/accounts/accounts");
const { verifyDashboardLogin } = await import("@/lib/services/accounts/dashboard-users");
const { acceptInvitation, findInvitation, inviteTeamMember, listTeam } = await import("@/lib/services/accounts/team");
const { invitationThrottle, inviteTokenThrottle } = await import("@/lib/auth/invite-throttle");
const { getDb } = await import("@/lib/db/client");
const { teamInvitations } = await import("@/lib/db/schema");
const { randomCpf } = await import("../helpers/accounts");

const PASSWORD = "senha-forte-123";
let closed = false;
afterAll(async () => {
  if (!closed) await receiver.close();
});

type Ctx = Parameters<typeof inviteTeamMember>[0] & { user: NonNullable<Awaited<ReturnType<typeof verifyDashboardLogin>>> };
let owner: Ctx;
beforeAll(async () => {
  const email = `dona.${Date.now().toString(36)}@example.com`;
  const created = await createAccount({ name: "Ótica São João", document: randomCpf(), email, password: PASSWORD });
  const user = (await verifyDashboardLogin(email, PASSWORD))!;
  await getDb().execute(sql`update users set name = 'Conceição Araújo' where id = ${user.id}`);
  owner = { account: (await findAccountById(created.companyId))!, user: { ...user, name: "Conceição Araújo" }, now: new Date() };
});

/** One MIME message's headers (unfolded, encoded-words decoded) and its text and HTML parts, decoded. */
function parseMail(raw: string): { headers: Record<string, string>; text: string; html: string } {
  const [head, ...rest] = raw.split(/\r?\n\r?\n/);
  const headers = headersOf(head);
  const boundary = /boundary="?([^";]+)"?/i.exec(headers["content-type"] ?? "")?.[1];
  const parts = boundary ? rest.join("\r\n\r\n").split(`--${boundary}`).slice(1, -1) : [rest.join("\r\n\r\n")];
  let text = "";
  let html = "";
  for (const part of parts) {
    const cut = part.replace(/^\r?\n/, "").search(/\r?\n\r?\n/);
    const p = part.replace(/^\r?\n/, "");
    const h = headersOf(p.slice(0, cut));
    const body = decodeBody(p.slice(cut).replace(/^\r?\n\r?\n/, ""), h["content-transfer-encoding"] ?? "7bit");
    if ((h["content-type"] ?? "").startsWith("text/plain")) text = body;
    if ((h["content-type"] ?? "").startsWith("text/html")) html = body;
  }
  return { headers, text, html };
}

function headersOf(block: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of block.replace(/\r?\n[ \t]+/g, " ").split(/\r?\n/)) {
    const i = line.indexOf(":");
    if (i > 0) out[line.slice(0, i).trim().toLowerCase()] = decodeWords(line.slice(i + 1).trim());
  }
  return out;
}

/** RFC 2047 encoded-words (=?UTF-8?Q?...?= and =?UTF-8?B?...?=), adjacent ones joined. */
function decodeWords(v: string): string {
  return v
    .replace(/\?=\s+=\?/g, "?==?")
    .replace(/=\?utf-8\?([QB])\?([^?]*)\?=/gi, (_, enc: string, data: string) =>
      enc.toUpperCase() === "B"
        ? Buffer.from(data, "base64").toString("utf8")
        : Buffer.from(data.replace(/_/g, " ").replace(/=([0-9A-F]{2})/gi, (__, h: string) => String.fromCharCode(Number.parseInt(h, 16))), "latin1").toString("utf8"),
    );
}

function decodeBody(body: string, encoding: string): string {
  const e = encoding.toLowerCase();
  if (e === "base64") return Buffer.from(body.replace(/\s+/g, ""), "base64").toString("utf8");
  if (e === "quoted-printable") {
    const qp = body.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/gi, (_, h: string) => String.fromCharCode(Number.parseInt(h, 16)));
    return Buffer.from(qp, "latin1").toString("utf8");
  }
  return body;
}

/** Every row of every table, as JSON text: where the token could have been stored. */
async function everyRow(): Promise<string> {
  const db = getDb();
  const rowsOf = (r: unknown) => (Array.isArray(r) ? r : (r as { rows: unknown[] }).rows) as Record<string, unknown>[];
  const tables = rowsOf(await db.execute(sql`select table_name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE'`));
  const out: string[] = [];
  for (const t of tables) {
    for (const r of rowsOf(await db.execute(sql.raw(`select row_to_json(t)::text as j from "${String(t.table_name)}" t`)))) out.push(String(r.j));
  }
  return out.join("\n");
}

const ip = (() => {
  let n = 0;
  return () => `10.88.0.${++n}`;
})();

describe("the team invitation e-mail", () => {
  it("arrives at the SMTP server, to the invited address, in Portuguese, with the one link that opens and accepts the invitation", async () => {
    const colleague = `joao.colega.${Date.now().toString(36)}@example.com`;
    const r = await inviteTeamMember(owner, { name: "João Pedro Colega", email: colleague.toUpperCase() }, invitationThrottle);
    expect(r).toMatchObject({ ok: true, mailed: true, mailFailed: false });
    if (!r.ok) return;

    // sendMail resolves once the SMTP server has taken the message: it is there now.
    expect(receiver.mails).toHaveLength(1);
    const mail = receiver.mails[0];
    expect(mail.to).toEqual([colleague]);
    expect(mail.from).toBe("equipe@arara.test");
    const { headers, text, html } = parseMail(mail.raw);
    expect(headers.to).toBe(colleague);
    expect(headers.subject).toBe("Convite para uma equipe no Arara");
    expect(text).toContain("Olá, João!");
    expect(text).toContain("Conceição Araújo convidou você para acessar o painel de Ótica São João no Arara.");
    expect(text).toMatch(/válido até \d{2}\/\d{2}\/\d{4},? \d{2}:\d{2}, horário de Brasília, e só uma vez/);
    expect(text).toContain("Se você não esperava este convite, ignore este e-mail.");
    expect(html).toContain("<p>Olá, João!</p>");
    expect(html).toContain("Aceitar o convite e criar a sua senha");

    // The link, read from the mail (text and HTML say the same one).
    const links = [...text.matchAll(/https?:\/\/\S+\/convite\/[A-Za-z0-9_-]+/g)].map((m) => m[0]);
    expect(links).toHaveLength(1);
    const link = links[0];
    expect(html).toContain(`href="${link}"`);
    expect(link).toBe(`http://localhost:3000/convite/${r.token}`);
    const token = link.slice(link.lastIndexOf("/") + 1);
    expect(Buffer.from(token, "base64url")).toHaveLength(32);

    // Only the token's SHA-256 is in the database: the token is in no row of any table.
    const [row] = await getDb().select().from(teamInvitations).where(eq(teamInvitations.id, r.invitation.id));
    expect(row.tokenHash).toBe(createHash("sha256").update(token).digest("hex"));
    expect(await everyRow()).not.toContain(token);

    // The link works: it opens the invitation and accepts it, once.
    const seen = await findInvitation(token, inviteTokenThrottle(ip()));
    expect(seen).toMatchObject({ ok: true, invitation: { email: colleague, name: "João Pedro Colega", companyName: "Ótica São João" } });
    const accepted = await acceptInvitation(token, { name: "João Pedro", password: "senha-do-joao-1", confirmation: "senha-do-joao-1" }, inviteTokenThrottle(ip()));
    expect(accepted).toMatchObject({ ok: true, email: colleague, companyId: owner.account.id });
    expect(await verifyDashboardLogin(colleague, "senha-do-joao-1")).toMatchObject({ companyId: owner.account.id, name: "João Pedro" });
    expect((await acceptInvitation(token, { name: "Outro", password: "outra-senha-2", confirmation: "outra-senha-2" }, inviteTokenThrottle(ip()))).ok).toBe(false);
    // One mail for one invitation.
    expect(receiver.mails).toHaveLength(1);
  });

  it("a refused invitation sends nothing", async () => {
    const before = receiver.mails.length;
    expect(await inviteTeamMember(owner, { name: "Sem E-mail", email: "nao-e-email" }, invitationThrottle)).toMatchObject({ ok: false, reason: "invalid" });
    expect(await inviteTeamMember(owner, { name: "Eu Mesma", email: owner.user.email }, invitationThrottle)).toMatchObject({ ok: false, reason: "email_in_use" });
    expect(receiver.mails).toHaveLength(before);
  });

  it("the subject is fixed: a company name written as a phishing sentence is not in it, and is escaped in the body", async () => {
    const phish = `Seu Pix foi BLOQUEADO <a href="https://golpe.example/x">regularize aqui</a> & "urgente"`;
    expect(phish.length).toBeLessThanOrEqual(120);
    const email = `dona.phish.${Date.now().toString(36)}@example.com`;
    const created = await createAccount({ name: "Loja Honesta", document: randomCpf(), email, password: PASSWORD });
    await getDb().execute(sql`update companies set name = ${phish} where id = ${created.companyId}`);
    const user = (await verifyDashboardLogin(email, PASSWORD))!;
    const ctx = { account: (await findAccountById(created.companyId))!, user, now: new Date() };
    const before = receiver.mails.length;
    expect(await inviteTeamMember(ctx, { name: "Vítima Convidada", email: `vitima.phish.${Date.now().toString(36)}@example.com` }, invitationThrottle)).toMatchObject({ ok: true, mailed: true });
    expect(receiver.mails).toHaveLength(before + 1);
    const { headers, text, html } = parseMail(receiver.mails[before].raw);
    expect(headers.subject).toBe("Convite para uma equipe no Arara");
    expect(headers.subject).not.toMatch(/BLOQUEADO|golpe|regularize/);
    // The body names the company as it is written, and the HTML cannot carry its link.
    expect(text).toContain(`painel de ${phish} no Arara`);
    expect(html).not.toContain('<a href="https://golpe.example');
    expect(html).toContain("&lt;a href=&quot;https://golpe.example/x&quot;&gt;regularize aqui&lt;/a&gt; &amp; &quot;urgente&quot;");
  });

  it("an invitation over a limit mails nothing: the 21st of an account in an hour, the 4th to one e-mail in a day", async () => {
    const email = `dona.limite.${Date.now().toString(36)}@example.com`;
    const created = await createAccount({ name: "Loja Limite", document: randomCpf(), email, password: PASSWORD });
    const user = (await verifyDashboardLogin(email, PASSWORD))!;
    const ctx = { account: (await findAccountById(created.companyId))!, user, now: new Date() };
    const stamp = Date.now().toString(36);
    const to = (i: number) => `limite.${i}.${stamp}@example.com`;
    const before = receiver.mails.length;
    // 3 to one address (the 4th refused), then up to 20 for the account (the 21st refused).
    for (let i = 0; i < 3; i++) expect(await inviteTeamMember(ctx, { name: "Mesma Pessoa", email: to(0) }, invitationThrottle)).toMatchObject({ ok: true, mailed: true });
    expect(await inviteTeamMember(ctx, { name: "Mesma Pessoa", email: to(0) }, invitationThrottle)).toMatchObject({ ok: false, reason: "throttled" });
    expect(receiver.mails).toHaveLength(before + 3);
    for (let i = 1; i <= 17; i++) expect(await inviteTeamMember(ctx, { name: "Outra Pessoa", email: to(i) }, invitationThrottle)).toMatchObject({ ok: true, mailed: true });
    expect(receiver.mails).toHaveLength(before + 20);
    const refused = await inviteTeamMember(ctx, { name: "Pessoa 21", email: to(21) }, invitationThrottle);
    expect(refused).toMatchObject({ ok: false, reason: "throttled", message: expect.stringMatching(/^Muitos convites em pouco tempo\. Tente de novo em \d+ minutos?\.$/) });
    expect(receiver.mails).toHaveLength(before + 20);
    expect(receiver.mails.slice(before).every((m) => !m.to.includes(to(21)))).toBe(true);
  });

  it("an SMTP server that cannot be reached: the invitation stays, and the inviter is told the mail failed", async () => {
    await receiver.close();
    closed = true;
    const email = `sem.smtp.${Date.now().toString(36)}@example.com`;
    const r = await inviteTeamMember(owner, { name: "Sem Correio", email }, invitationThrottle);
    expect(r).toMatchObject({ ok: true, mailed: false, mailFailed: true });
    expect((await listTeam(owner)).invitations.map((i) => i.email)).toContain(email);
  });
});
