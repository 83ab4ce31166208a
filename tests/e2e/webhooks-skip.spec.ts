/**
 * The dashboard tells the truth about a webhook held behind a failing one (delivery is in order per
 * transaction): the later event says which event it waits for, not a next attempt time already past;
 * "Desistir" gives the failing event up, and the later event is delivered at once.
 */
import { expect, test } from "@playwright/test";
import { startReceiver, type Receiver } from "@/tests/helpers/webhook-receiver";
import { DESKTOP, PHONE, basicAuth, createCharge, expectAccessible, screenshot, signUp } from "./dashboard-helpers";

test.use({ locale: "pt-BR", timezoneId: "America/Sao_Paulo" });

let receiver: Receiver;

test.beforeAll(async () => {
  // An endpoint that fails the `pending` notification and would accept the others.
  receiver = await startReceiver((hit) => ({ status: hit.json?.data?.status === "pending" ? 500 : 200 }));
});
test.afterAll(async () => {
  await receiver?.close();
});

test("a webhook waiting behind a failing one says so, and skipping the failing one lets it go", async ({ page, request }) => {
  test.setTimeout(120_000);
  await page.setViewportSize(DESKTOP);
  const merchant = await signUp(page, "Loja Webhooks Ltda");

  const pix = await createCharge(request, merchant, { paymentMethod: "pix", amount: 4_990, postbackUrl: `${receiver.url}/arara` });
  const paid = await request.put(`/api/v1/transactions/${pix.id}/test`, { headers: { authorization: basicAuth(merchant) }, data: { status: "paid" } });
  expect(paid.status()).toBe(200);
  // The default schedule retries 5 s after the first attempt, then 5 min later: wait for the second
  // attempt, so no automatic attempt is in flight when "Desistir" is clicked (a skip during an attempt
  // is refused with 409 by design, and the page then asks to reload and try again).
  const pendingHits = () => receiver.hits.filter((h) => h.json?.data?.id === pix.id && h.json.data.status === "pending").length;
  await receiver.waitFor(() => pendingHits() >= 2, 30_000, "the first two attempts of pending");
  await expect(async () => {
    const res = await request.get(`/api/v1/transactions/${pix.id}/webhooks`, { headers: { authorization: basicAuth(merchant) } });
    const body = await res.json();
    // Both attempts recorded: no attempt in flight, the next one 5 min away.
    expect(body.data.find((e: { status: string }) => e.status === "pending")).toMatchObject({ deliveryState: "pending", attemptCount: 2 });
  }).toPass({ timeout: 15_000 });

  const events = page.getByTestId("webhook-events").locator("li[data-event-id]");
  await page.goto(`/dashboard/transactions/${pix.id}`);
  await expect(events).toHaveCount(2);
  const [pendingEvent, paidEvent] = [events.nth(0), events.nth(1)];
  const pendingId = await pendingEvent.getAttribute("data-event-id");
  await expect(pendingEvent).toContainText("HTTP 500");
  await expect(pendingEvent).toContainText("Aguardando envio");
  await expect(pendingEvent.getByTestId("webhook-next-attempt")).toContainText("Próxima tentativa");
  await expect(paidEvent.getByTestId("webhook-waiting")).toContainText(`Aguardando o evento #${pendingId}`);
  await expect(paidEvent.getByTestId("webhook-next-attempt")).toHaveCount(0);
  await expect(paidEvent.getByRole("button", { name: "Desistir" })).toHaveCount(0);
  await expectAccessible(page, "transaction page with a held webhook");
  await screenshot(page, "webhook-waiting-desktop");

  page.once("dialog", (d) => d.accept());
  await pendingEvent.getByRole("button", { name: "Desistir" }).click();
  // The page renders again: the event is abandoned, and its log says so.
  await expect(pendingEvent).toContainText("Abandonado");

  await receiver.waitFor(() => receiver.hits.some((h) => h.json?.data?.id === pix.id && h.json.data.status === "paid"), 20_000, "the paid event");
  await expect(async () => {
    await page.reload();
    await expect(events.nth(0)).toContainText("Abandonado");
    await expect(events.nth(0)).toContainText("Abandonado: não será mais enviado");
    await expect(events.nth(1)).toContainText("Entregue");
  }).toPass({ timeout: 15_000 });
  await expect(events.nth(0).getByRole("button", { name: "Desistir" })).toHaveCount(0);
  await expect(page.getByTestId("webhook-waiting")).toHaveCount(0);
  await expectAccessible(page, "transaction page after a skip");
  await page.setViewportSize(PHONE);
  await screenshot(page, "webhook-skipped-phone");
});
