/**
 * Two dashboard pages: the cash-out page lists the cash-out's webhook notifications (attempts, body,
 * "Reenviar"), as the transaction page does; and a merchant changes the login password in
 * Configurações → Senha de acesso, signs out, and signs in with the new one (the old one no longer works).
 */
import { expect, test } from "@playwright/test";
import { startReceiver, type Receiver } from "@/tests/helpers/webhook-receiver";
import { DEMO } from "@/lib/services/accounts/demo-merchant";
import { DESKTOP, PHONE_390, basicAuth, createCharge, expectAccessible, shotFromTop, signIn, signOut, signUp } from "./dashboard-helpers";

test.use({ locale: "pt-BR", timezoneId: "America/Sao_Paulo" });



let receiver: Receiver;
test.beforeAll(async () => {
  receiver = await startReceiver(() => ({ status: 200 }));
});
test.afterAll(async () => {
  await receiver?.close();
});

test("the cash-out page lists the cash-out's webhook deliveries, and one can be sent again", async ({ page, request }) => {
  test.setTimeout(90_000);
  await page.setViewportSize(DESKTOP);
  const merchant = await signUp(page, "Loja Saques Webhooks Ltda");
  const pix = await createCharge(request, merchant, { paymentMethod: "pix", amount: 20_000 });
  const paid = await request.put(`/api/v1/transactions/${pix.id}/test`, { headers: { authorization: basicAuth(merchant) }, data: { status: "paid" } });
  expect(paid.status()).toBe(200);
  const res = await request.post("/api/v1/cashOut/request", {
    headers: { authorization: basicAuth(merchant) },
    data: { amount: 5_000, pixKey: "financeiro@example.com", postbackUrl: `${receiver.url}/saques` },
  });
  expect(res.status(), await res.text()).toBe(201);
  const cashOutId = (await res.json()).data.id as number;
  // The sandbox PSP finishes the transfer: `pending`, `processing` and `completed` are delivered, in order.
  const hitsOf = (status: string) => receiver.hits.filter((h) => h.json?.data?.id === cashOutId && h.json.data.status === status).length;
  await receiver.waitFor(() => hitsOf("completed") >= 1, 30_000, "the cash-out's completed notification");

  const events = page.getByTestId("webhook-events").locator("li[data-event-id]");
  await expect(async () => {
    await page.goto(`/dashboard/cash-out/${cashOutId}`);
    await expect(page.getByRole("heading", { level: 1 })).toContainText(`Saque #${cashOutId}`);
    await expect(events).toHaveCount(3);
    for (let i = 0; i < 3; i++) await expect(events.nth(i)).toContainText("Entregue");
  }).toPass({ timeout: 20_000 });
  const webhooks = page.getByRole("region", { name: "Webhooks" });
  await expect(webhooks).toContainText(`Enviados para ${receiver.url}/saques`);
  await expect(events.nth(0)).toContainText("pending");
  await expect(events.nth(1)).toContainText("processing");
  await expect(events.nth(2)).toContainText("completed");
  await expect(events.nth(0)).toContainText("HTTP 200");
  await expectAccessible(page, "cash-out page with its webhooks");
  await shotFromTop(page, "cash-out-webhooks-desktop");

  // "Reenviar" sends the event again now, as a manual attempt, and the page shows it.
  const before = hitsOf("pending");
  await events.nth(0).getByRole("button", { name: "Reenviar" }).click();
  await expect(events.nth(0).getByRole("status")).toHaveText("Reenviado com sucesso (HTTP 200).");
  await expect(events.nth(0)).toContainText("(manual)");
  expect(hitsOf("pending")).toBe(before + 1);
  await events.nth(2).getByText("Ver corpo enviado").click();
  await expect(events.nth(2).locator("pre")).toContainText(`"id": ${cashOutId}`);
  await expect(events.nth(2).locator("pre")).toContainText(`"status": "completed"`);

  await page.setViewportSize(PHONE_390);
  await page.reload();
  await expect(events).toHaveCount(3);
  await expectAccessible(page, "cash-out page with its webhooks, phone");
  await shotFromTop(page, "cash-out-webhooks-phone");

  // A cash-out without a postbackUrl says so, and lists nothing to send again.
  const bare = await request.post("/api/v1/cashOut/request", { headers: { authorization: basicAuth(merchant) }, data: { amount: 1_000, pixKey: "financeiro@example.com" } });
  expect(bare.status()).toBe(201);
  await page.goto(`/dashboard/cash-out/${(await bare.json()).data.id}`);
  await expect(page.getByRole("region", { name: "Webhooks" })).toContainText("Sem URL de notificação (postbackUrl) neste saque");
  await expect(page.getByRole("button", { name: "Reenviar" })).toHaveCount(0);
});

test("a merchant changes the login password, signs out, and signs in with the new one", async ({ page, browser }) => {
  test.setTimeout(90_000);
  await page.setViewportSize(DESKTOP);
  const merchant = await signUp(page, "Loja Senha Nova Ltda");
  const newPassword = "outra-senha-forte-2026";
  // A session open elsewhere (another browser) before the change.
  const elsewhere = await browser.newContext({ baseURL: new URL(page.url()).origin });
  const other = await elsewhere.newPage();
  await signIn(other, merchant.email, merchant.password);

  await page.setViewportSize(PHONE_390);
  await page.goto("/dashboard/settings");
  await expect(page.getByRole("link", { name: "Alterar senha" })).toHaveAttribute("href", "/dashboard/settings/password");
  await shotFromTop(page, "settings-phone");
  await page.setViewportSize(DESKTOP);
  await page.getByRole("link", { name: "Senha de acesso" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Senha de acesso" })).toBeVisible();
  await expectAccessible(page, "password page");
  await shotFromTop(page, "password-desktop");

  const fill = async (current: string, next: string, again: string) => {
    await page.getByLabel("Senha atual", { exact: true }).fill(current);
    await page.getByLabel("Nova senha", { exact: true }).fill(next);
    await page.getByLabel("Confirme a nova senha").fill(again);
    await page.getByRole("button", { name: "Alterar senha" }).click();
  };
  // A wrong current password: refused, said clearly, nothing changed.
  await fill("nao-e-essa-senha", newPassword, newPassword);
  // (Next's route announcer is an alert too: the form's is the one with the sentence.)
  await expect(page.getByRole("alert").filter({ hasText: "não confere" })).toHaveText("A senha atual não confere. Nada foi alterado.");
  await expect(page.getByText("Senha atual incorreta.")).toBeVisible();
  await expect(page.getByLabel("Senha atual", { exact: true })).toHaveAttribute("aria-invalid", "true");
  await shotFromTop(page, "password-wrong-current-desktop");
  // Typed differently twice.
  await fill(merchant.password, newPassword, `${newPassword}x`);
  await expect(page.getByText("As senhas não conferem.")).toBeVisible();

  await page.setViewportSize(PHONE_390);
  await fill(merchant.password, newPassword, newPassword);
  await expect(page.getByRole("status").filter({ hasText: "Senha alterada." })).toHaveText(
    "Senha alterada. As sessões abertas em outros aparelhos foram encerradas.",
  );
  // The form is emptied: no password stays on the page.
  await expect(page.getByLabel("Senha atual", { exact: true })).toHaveValue("");
  await expectAccessible(page, "password changed");
  await shotFromTop(page, "password-changed-phone");

  // The other browser's session has ended; this one stays signed in. Sign out, then the old password
  // no longer opens the dashboard, the new one does.
  await other.goto("/dashboard/settings");
  await expect(other).toHaveURL(/\/login/);
  await elsewhere.close();
  await page.goto("/dashboard/settings");
  await expect(page.getByRole("heading", { level: 1, name: "Configurações" })).toBeVisible();
  await signOut(page);
  await page.setViewportSize(DESKTOP);
  await page.getByLabel("E-mail").fill(merchant.email);
  await page.getByLabel("Senha", { exact: true }).fill(merchant.password);
  await page.getByRole("button", { name: "Entrar" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "incorretos" })).toHaveText("E-mail ou senha incorretos.");
  await expect(page).toHaveURL(/\/login/);
  await signIn(page, merchant.email, newPassword);
});

test("the demo merchant's published password cannot be changed, and the page says why", async ({ page }) => {
  await page.setViewportSize(DESKTOP);
  await signIn(page, DEMO.email, DEMO.password);
  await page.goto("/dashboard/settings/password");
  await expect(page.getByTestId("demo-password")).toContainText("A senha da conta de demonstração é pública e não pode ser trocada");
  await expect(page.getByRole("button", { name: "Alterar senha" })).toHaveCount(0);
  await expectAccessible(page, "password page of the demo merchant");
  await shotFromTop(page, "password-demo-desktop");
});
