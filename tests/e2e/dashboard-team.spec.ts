/**
 * A merchant's team (Configurações → Equipe): the merchant invites a colleague and copies the link
 * (shown once); the colleague opens it in another browser, creates a password and lands in the same
 * account's dashboard; the merchant removes them, and the colleague's next page load goes to the
 * sign-in page. The link, used once, then says the invitation is not valid. The page's "Histórico da
 * equipe" says each of these (and a cancelled invitation), newest first.
 */
import { expect, test } from "@playwright/test";
import { DESKTOP, PHONE_390, expectAccessible, shotFromTop, signUp } from "./dashboard-helpers";

test.use({ locale: "pt-BR", timezoneId: "America/Sao_Paulo" });



test("a merchant invites a colleague, who joins the account with the link, and then removes them", async ({ page, browser }) => {
  test.setTimeout(120_000);
  await page.setViewportSize(DESKTOP);
  await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
  const merchant = await signUp(page, "Loja Equipe Ltda");
  const colleagueEmail = `colega.${Date.now().toString(36)}@example.com`;

  await page.goto("/dashboard/settings");
  await page.getByRole("link", { name: "Equipe" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Equipe" })).toBeVisible();
  const members = page.getByTestId("team-members");
  await expect(members.locator("tr[data-user-id]")).toHaveCount(1);
  await expect(members).toContainText(merchant.email);
  await expect(members).toContainText("você");
  await expect(page.getByText("Nenhum convite pendente")).toBeVisible();
  await expect(page.getByRole("heading", { level: 2, name: "Histórico da equipe" })).toBeVisible();
  await expect(page.getByText("Nada por aqui ainda")).toBeVisible();
  // The e2e server has no SMTP: the page says the link must be sent by hand.
  await expect(page.getByTestId("no-smtp")).toContainText("copie o link e envie você mesmo");
  await expectAccessible(page, "team page");

  // An e-mail that already signs in is refused, said clearly.
  await page.getByLabel("Nome", { exact: true }).fill("Eu de Novo");
  await page.getByLabel("E-mail", { exact: true }).fill(merchant.email);
  await page.getByRole("button", { name: "Convidar" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "já faz parte" })).toHaveText("Este e-mail já faz parte da equipe.");

  await page.getByLabel("Nome", { exact: true }).fill("Bruna Colega");
  await page.getByLabel("E-mail", { exact: true }).fill(colleagueEmail);
  await page.getByRole("button", { name: "Convidar" }).click();
  const result = page.getByTestId("invite-result");
  await expect(result).toContainText("Convite criado para Bruna Colega.");
  await expect(result).toContainText(`envie para ${colleagueEmail}`);
  const link = (await page.getByTestId("invite-link").textContent())!.trim();
  expect(link).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/convite\/[A-Za-z0-9_-]{43}$/);
  await result.getByRole("button", { name: "Copiar" }).click();
  await expect(result.getByRole("button", { name: "Copiado!" })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);
  const invitations = page.getByTestId("team-invitations");
  await expect(invitations.locator("tr[data-invitation-id]")).toHaveCount(1);
  await expect(invitations).toContainText(colleagueEmail);
  await expect(page.getByTestId("team-count")).toHaveText("2 de 20 lugares usados");
  const history = page.getByTestId("team-history").locator("li");
  await expect(history).toHaveCount(1);
  await expect(history.first()).toContainText(`Loja Equipe Ltda convidou ${colleagueEmail}`);
  await expect(history.first().locator("time")).toHaveText(/^\d{2}\/\d{2}\/\d{4},? \d{2}:\d{2}$/);
  // The form is emptied for the next invitation.
  await expect(page.getByLabel("E-mail", { exact: true })).toHaveValue("");
  await expectAccessible(page, "team page with the invitation's link");
  await shotFromTop(page, "team-invited-desktop");
  await page.setViewportSize(PHONE_390);
  await shotFromTop(page, "team-invited-phone");

  // The colleague, in another browser, opens the link.
  const other = await browser.newContext({ baseURL: new URL(page.url()).origin, locale: "pt-BR", timezoneId: "America/Sao_Paulo", viewport: PHONE_390 });
  const colleague = await other.newPage();
  const opened = await colleague.goto(link);
  // Like the sign-in pages: not framable, and the token in its address is not sent on as a Referer.
  expect(opened?.headers()["x-frame-options"]).toBe("DENY");
  await expect(colleague.getByRole("heading", { level: 1, name: "Entrar na equipe" })).toBeVisible();
  await expect(colleague.getByText("Loja Equipe Ltda")).toBeVisible();
  await expect(colleague.getByLabel("E-mail de acesso")).toHaveValue(colleagueEmail);
  await expect(colleague.getByLabel("Seu nome")).toHaveValue("Bruna Colega");
  await expectAccessible(colleague, "invitation page");
  await shotFromTop(colleague, "invite-accept-phone");
  await colleague.setViewportSize(DESKTOP);
  await shotFromTop(colleague, "invite-accept-desktop");
  // Typed differently twice: said by the field.
  await colleague.getByLabel("Senha", { exact: true }).fill("senha-da-bruna-2026");
  await colleague.getByLabel("Confirme a senha").fill("senha-da-bruna-2027");
  await colleague.getByRole("button", { name: "Criar acesso e entrar" }).click();
  await expect(colleague.getByText("As senhas não conferem.")).toBeVisible();
  await colleague.getByLabel("Senha", { exact: true }).fill("senha-da-bruna-2026");
  await colleague.getByLabel("Confirme a senha").fill("senha-da-bruna-2026");
  await colleague.getByRole("button", { name: "Criar acesso e entrar" }).click();
  await expect(colleague).toHaveURL(/\/dashboard$/);
  await expect(colleague.getByRole("heading", { level: 1, name: "Visão geral" })).toBeVisible();
  // The same account: its team lists both, the colleague as "você".
  await colleague.goto("/dashboard/settings/team");
  const theirList = colleague.getByTestId("team-members");
  await expect(theirList.locator("tr[data-user-id]")).toHaveCount(2);
  await expect(theirList.locator("tr", { hasText: colleagueEmail })).toContainText("você");
  await expect(theirList).toContainText(merchant.email);

  // The merchant removes the colleague (after confirming).
  await page.setViewportSize(DESKTOP);
  await page.reload();
  await expect(members.locator("tr[data-user-id]")).toHaveCount(2);
  await expect(page.getByText("Nenhum convite pendente")).toBeVisible();
  await shotFromTop(page, "team-two-desktop");
  page.once("dialog", (d) => void d.accept());
  await page.getByRole("button", { name: "Remover Bruna Colega" }).click();
  await expect(members.locator("tr[data-user-id]")).toHaveCount(1);
  await expect(members).not.toContainText(colleagueEmail);

  // An invitation cancelled (after confirming).
  const cancelledEmail = `cancelado.${Date.now().toString(36)}@example.com`;
  await page.getByLabel("Nome", { exact: true }).fill("Carlos Cancelado");
  await page.getByLabel("E-mail", { exact: true }).fill(cancelledEmail);
  await page.getByRole("button", { name: "Convidar" }).click();
  await expect(invitations.locator("tr[data-invitation-id]")).toHaveCount(1);
  page.once("dialog", (d) => void d.accept());
  await page.getByRole("button", { name: `Cancelar o convite de ${cancelledEmail}` }).click();
  await expect(page.getByText("Nenhum convite pendente")).toBeVisible();

  // The history says all of it, newest first, in Portuguese.
  await page.reload();
  await expect(history).toHaveText([
    new RegExp(`^Loja Equipe Ltda cancelou o convite de ${cancelledEmail.replace(/\./g, "\\.")} em `),
    new RegExp(`^Loja Equipe Ltda convidou ${cancelledEmail.replace(/\./g, "\\.")} em `),
    new RegExp(`^Loja Equipe Ltda removeu o acesso de ${colleagueEmail.replace(/\./g, "\\.")} em `),
    new RegExp(`^Bruna Colega \\(${colleagueEmail.replace(/\./g, "\\.")}\\) aceitou o convite e entrou na equipe em `),
    new RegExp(`^Loja Equipe Ltda convidou ${colleagueEmail.replace(/\./g, "\\.")} em `),
  ]);
  await expect(history.first().locator("time")).toHaveAttribute("datetime", /^\d{4}-\d{2}-\d{2}T/);
  await expectAccessible(page, "team page with its history");
  await page.getByRole("heading", { level: 2, name: "Histórico da equipe" }).scrollIntoViewIfNeeded();
  await shotFromTop(page, "team-history-desktop");
  await page.setViewportSize(PHONE_390);
  await shotFromTop(page, "team-history-phone");
  await page.setViewportSize(DESKTOP);

  // The colleague's next page load goes to the sign-in page, and the password no longer works.
  await colleague.goto("/dashboard/settings/team");
  await expect(colleague).toHaveURL(/\/login/);
  await colleague.getByLabel("E-mail").fill(colleagueEmail);
  await colleague.getByLabel("Senha", { exact: true }).fill("senha-da-bruna-2026");
  await colleague.getByRole("button", { name: "Entrar" }).click();
  await expect(colleague.getByRole("alert").filter({ hasText: "incorretos" })).toHaveText("E-mail ou senha incorretos.");

  // The link was used: one page for used, expired and unknown tokens alike.
  await colleague.goto(link);
  await expect(colleague.getByRole("heading", { level: 1, name: "Convite inválido" })).toBeVisible();
  await expect(colleague.getByTestId("invite-invalid")).toContainText("pode ter expirado, já ter sido usado ou ter sido cancelado");
  await expectAccessible(colleague, "invalid invitation page");
  await shotFromTop(colleague, "invite-invalid-desktop");
  await other.close();
});
