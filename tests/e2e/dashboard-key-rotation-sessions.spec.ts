/**
 * "Gerar nova chave secreta" says, before it is confirmed, that every dashboard session of the account
 * ends too (a rotation answers a leak), and after it, that the others ended and this one goes on: a
 * second browser signed in to the account is sent to the login, this one stays.
 */
import { expect, test } from "@playwright/test";
import { DESKTOP, PHONE_390, expectAccessible, shotFromTop, signIn, signUp } from "./dashboard-helpers";

test.use({ locale: "pt-BR", timezoneId: "America/Sao_Paulo" });
test.setTimeout(90_000);

test("rotating the secret key warns that the account's dashboard sessions end, and only this one goes on", async ({ page, browser }) => {
  await page.setViewportSize(DESKTOP);
  const m = await signUp(page, "Loja Troca de Chave");
  const elsewhere = await browser.newPage();
  await signIn(elsewhere, m.email, m.password);

  await page.goto("/dashboard/developers");
  await page.getByRole("button", { name: "Gerar nova chave secreta" }).click();
  const confirm = page.getByRole("form", { name: "Confirmar troca da chave secreta" });
  await expect(confirm.getByTestId("rotation-ends-sessions")).toContainText("Todas as sessões do painel desta conta também são encerradas");
  await expect(confirm.getByTestId("rotation-ends-sessions")).toContainText("só esta continua");
  await expectAccessible(page, "secret key rotation confirmation");
  await shotFromTop(page, "key-rotation-confirm-desktop");
  await page.setViewportSize(PHONE_390);
  await shotFromTop(page, "key-rotation-confirm-phone");

  await page.getByRole("button", { name: "Revogar e gerar nova" }).click();
  await expect(page.getByTestId("new-secret-key")).toBeVisible();
  await expect(page.getByRole("alert").filter({ hasText: "Nova chave secreta gerada" })).toContainText(
    "As outras sessões do painel desta conta foram encerradas e pedem login de novo; a sua continua.",
  );
  await shotFromTop(page, "key-rotation-done-phone");

  // This session goes on; the other browser's has ended.
  await page.goto("/dashboard/developers");
  await expect(page.getByRole("heading", { level: 1, name: "Desenvolvedores" })).toBeVisible();
  await elsewhere.goto("/dashboard");
  await expect(elsewhere).toHaveURL(/\/login/);
  await elsewhere.close();
});
