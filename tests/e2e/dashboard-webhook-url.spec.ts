/**
 * Desenvolvedores → Webhooks: the merchant sets the account's default webhook URL in the browser; a
 * charge then created without a postbackUrl (store code that never sends one) is notified there, by
 * the running app's dispatcher. A URL that is not one is refused in words, and the field keeps it.
 */
import { expect, test } from "@playwright/test";
import { startReceiver, type Receiver } from "@/tests/helpers/webhook-receiver";
import { DESKTOP, createCharge, expectAccessible, screenshot, signUp } from "./dashboard-helpers";

test.use({ locale: "pt-BR", timezoneId: "America/Sao_Paulo" });

let receiver: Receiver;
test.beforeAll(async () => {
  receiver = await startReceiver(() => ({ status: 200 }));
});
test.afterAll(async () => {
  await receiver?.close();
});

test("a default webhook URL set in the dashboard receives the notifications of a charge created without a postbackUrl", async ({ page, request }) => {
  test.setTimeout(60_000);
  await page.setViewportSize(DESKTOP);
  const merchant = await signUp(page, "Loja Webhook Padrão Ltda");
  await page.goto("/dashboard/developers");
  const field = page.getByLabel("URL de webhook padrão");
  await field.fill("sualoja.com.br/webhook");
  await page.getByRole("button", { name: "Salvar URL" }).click();
  await expect(page.getByText(/^Use um endereço completo/)).toBeVisible();
  await expect(field).toHaveValue("sualoja.com.br/webhook");

  await field.fill(`${receiver.url}/padrao`);
  await page.getByRole("button", { name: "Salvar URL" }).click();
  await expect(page.getByRole("status").filter({ hasText: "URL de webhook salva" })).toBeVisible();
  await expectAccessible(page, "developers page with a default webhook URL");
  await screenshot(page, "developers-webhook-url");

  const charge = await createCharge(request, merchant, {});
  expect((charge as { postbackUrl?: string }).postbackUrl).toBe(`${receiver.url}/padrao`);
  await receiver.waitFor(() => receiver.hits.some((h) => h.json?.data?.id === charge.id), 20_000, "the pending postback at the default URL");
  await page.reload();
  await expect(field).toHaveValue(`${receiver.url}/padrao`);
});
