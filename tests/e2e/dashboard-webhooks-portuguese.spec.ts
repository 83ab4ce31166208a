/**
 * The transaction page's webhooks speak Portuguese: an attempt's outcome ("o receptor respondeu HTTP
 * 500; só uma resposta 2xx conta como entregue", not the dispatcher's English), a redelivery that
 * failed; and an event waiting behind an earlier pending one offers no "Reenviar" (it would be
 * refused): it says which event it waits for.
 */
import { expect, test } from "@playwright/test";
import { startReceiver, type Receiver } from "@/tests/helpers/webhook-receiver";
import { DESKTOP, PHONE_390, basicAuth, createCharge, expectAccessible, shotFromTop, signUp } from "./dashboard-helpers";

test.use({ locale: "pt-BR", timezoneId: "America/Sao_Paulo" });

let receiver: Receiver;

test.beforeAll(async () => {
  // Fails the `pending` notification, would accept the others.
  receiver = await startReceiver((hit) => ({ status: hit.json?.data?.status === "pending" ? 500 : 200 }));
});
test.afterAll(async () => {
  await receiver?.close();
});

test("webhook attempts and redeliveries are told in Portuguese; a waiting event offers no Reenviar", async ({ page, request }) => {
  test.setTimeout(120_000);
  await page.setViewportSize(DESKTOP);
  const merchant = await signUp(page, "Loja Webhooks em Português");
  const pix = await createCharge(request, merchant, { paymentMethod: "pix", amount: 4_990, postbackUrl: `${receiver.url}/arara` });
  const paid = await request.put(`/api/v1/transactions/${pix.id}/test`, { headers: { authorization: basicAuth(merchant) }, data: { status: "paid" } });
  expect(paid.status()).toBe(200);
  const pendingHits = () => receiver.hits.filter((h) => h.json?.data?.id === pix.id && h.json.data.status === "pending").length;
  await receiver.waitFor(() => pendingHits() >= 2, 30_000, "the first two attempts of pending");
  await expect(async () => {
    const res = await request.get(`/api/v1/transactions/${pix.id}/webhooks`, { headers: { authorization: basicAuth(merchant) } });
    expect((await res.json()).data.find((e: { status: string }) => e.status === "pending")).toMatchObject({ deliveryState: "pending", attemptCount: 2 });
  }).toPass({ timeout: 15_000 });

  await page.goto(`/dashboard/transactions/${pix.id}`);
  const events = page.getByTestId("webhook-events").locator("li[data-event-id]");
  await expect(events).toHaveCount(2);
  const [pendingEvent, paidEvent] = [events.nth(0), events.nth(1)];
  const pendingId = await pendingEvent.getAttribute("data-event-id");
  const section = page.getByRole("region", { name: "Webhooks" });
  await expect(pendingEvent).toContainText("o receptor respondeu HTTP 500; só uma resposta 2xx conta como entregue");
  await expect(section).not.toContainText("only 2xx");
  await expect(section).not.toContainText("the receiver");

  // The event behind it: no Reenviar (the server refuses to overtake), and why.
  await expect(paidEvent.getByRole("button", { name: "Reenviar" })).toHaveCount(0);
  await expect(paidEvent.getByTestId("webhook-waiting")).toContainText(`Aguardando o evento #${pendingId}`);
  await expect(paidEvent.getByTestId("webhook-waiting")).toContainText(`reenvie o evento #${pendingId} ou desista dele`);
  await expectAccessible(page, "transaction page with a waiting webhook");
  await shotFromTop(page, "webhooks-pt-desktop");

  // A redelivery of the failing one fails again, in Portuguese.
  await pendingEvent.getByRole("button", { name: "Reenviar" }).click();
  await expect(pendingEvent.getByRole("status")).toHaveText("O reenvio falhou: o receptor respondeu HTTP 500; só uma resposta 2xx conta como entregue.");
  await page.setViewportSize(PHONE_390);
  await page.reload();
  await expect(events.nth(0)).toContainText("(manual)");
  await expect(section).not.toContainText("only 2xx");
  await shotFromTop(page, "webhooks-pt-phone");
});
