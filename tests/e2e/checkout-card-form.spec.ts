/**
 * The card form before and without JavaScript, and where it sits: the pay button says what it waits
 * for until the page's code has loaded, a browser without JavaScript gets a message in Portuguese
 * instead of a silent form (PIX and boleto charge pages keep working there), and on a computer the
 * order summary sits beside the form so the pay button is in view at 1440×900 without scrolling.
 */
import { expect, test, type Page } from "@playwright/test";
import { DECLINED_CARD, createLink, createTransaction, expectAccessible, fillCard, fillPayer, pathOf, screenshot } from "./checkout-helpers";

const PHONE = { width: 412, height: 915 };
const DESKTOP = { width: 1440, height: 900 };
const WAITING = "Carregando pagamento seguro…";
const NO_JS = "Ative o JavaScript para pagar";

/** A link's page with the card chosen, ready to pay. */
async function openCardLink(page: Page, request: Parameters<typeof createLink>[0]) {
  const link = await createLink(request, { externalRef: "pedido-card-form" });
  await page.goto(pathOf(link.secureUrl));
  const pay = page.getByTestId("link-submit");
  // Hydrated: the button names its action.
  await expect(pay).toBeEnabled();
  await page.getByTestId("method-credit_card").click();
  await expect(pay).toHaveText("Pagar R$ 299,00");
  return { link, pay };
}

async function bottomOf(page: Page, testId: string) {
  const box = await page.getByTestId(testId).boundingBox();
  expect(box, `${testId} is laid out`).not.toBeNull();
  return box!.y + box!.height;
}

for (const [label, viewport] of [
  ["phone", PHONE],
  ["desktop", DESKTOP],
] as const) {
  test.describe(`card form on a ${label}`, () => {
    test.use({ viewport });

    test("the summary and the form: beside each other on a computer with the pay button in view, one column on a phone", async ({ page, request }) => {
      const { pay } = await openCardLink(page, request);
      await fillPayer(page);
      await fillCard(page, DECLINED_CARD);
      await expectAccessible(page, `link card form (${label})`);
      await screenshot(page, `card-form-${label}`);

      const summary = (await page.getByTestId("order-amount").boundingBox())!;
      const form = (await page.getByTestId("method-credit_card").boundingBox())!;
      if (label === "desktop") {
        // Side by side: the form starts at the top, to the right of the summary.
        expect(form.x).toBeGreaterThan(summary.x + summary.width);
        expect(Math.abs(form.y - summary.y)).toBeLessThan(120);
        expect(await bottomOf(page, "link-submit"), "pay button above the fold").toBeLessThanOrEqual(DESKTOP.height);
      } else {
        // One column: the summary above the form, as before.
        expect(form.y).toBeGreaterThan(summary.y + summary.height);
        expect(Math.abs(form.x - summary.x)).toBeLessThan(40);
      }

      // After a refusal, the other-card form keeps the same arrangement.
      await pay.click();
      await expect(page.getByRole("heading", { name: "Pagamento recusado" })).toBeVisible();
      await expect(page.getByTestId("card-submit")).toHaveText("Pagar R$ 299,00");
      await expectAccessible(page, `refused, another card (${label})`);
      await screenshot(page, `card-refused-${label}`);
      if (label === "desktop") {
        expect(await bottomOf(page, "card-submit"), "retry pay button above the fold").toBeLessThanOrEqual(DESKTOP.height);
      }
    });

    test("without JavaScript the card form says so in Portuguese; a PIX charge still works", async ({ browser, request }) => {
      const context = await browser.newContext({ javaScriptEnabled: false, viewport, locale: "pt-BR" });
      const page = await context.newPage();
      try {
        const link = await createLink(request, { externalRef: "pedido-sem-js" });
        await page.goto(pathOf(link.secureUrl));
        // (Playwright's text selectors skip <noscript>, even when the browser shows its content: CSS finds it.)
        const notice = page.locator("css=noscript [data-testid=noscript-notice]");
        await expect(notice).toBeVisible();
        await expect(notice).toContainText("recarregue a página");
        await expect(page.locator("css=noscript > div").first()).toContainText(NO_JS);
        // The button cannot do anything here, and says it is waiting instead of offering to pay.
        await expect(page.getByTestId("link-submit")).toBeDisabled();
        await expect(page.getByTestId("link-submit")).toHaveText(WAITING);
        await screenshot(page, `card-form-nojs-${label}`);

        // A PIX charge's page needs no JavaScript: the code is there, and no such message.
        const pix = await createTransaction(request, { paymentMethod: "pix", externalRef: "pedido-sem-js-pix" });
        await page.goto(pathOf(pix.secureUrl));
        await expect(page.getByText(pix.pix!.qrcode, { exact: false }).first()).toBeAttached();
        await expect(page.locator("css=noscript [data-testid=noscript-notice]")).toHaveCount(0);
      } finally {
        await context.close();
      }
    });
  });
}

test("before hydration the server's HTML has the pay button waiting, disabled, and the no-JavaScript message", async ({ request }) => {
  const link = await createLink(request, { externalRef: "pedido-html" });
  const res = await request.get(pathOf(link.secureUrl));
  expect(res.status()).toBe(200);
  const html = await res.text();
  const button = /<button[^>]*data-testid="link-submit"[^>]*>([\s\S]*?)<\/button>/.exec(html);
  expect(button, "the pay button is in the server's HTML").not.toBeNull();
  expect(button![0]).toMatch(/\sdisabled(=""|\s|>)/);
  expect(button![1]).toContain(WAITING);
  expect(html).toMatch(/<noscript>[\s\S]*Ative o JavaScript para pagar[\s\S]*<\/noscript>/);
});
