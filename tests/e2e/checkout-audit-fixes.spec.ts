/**
 * The payer-facing fixes of the checkout audit: a pay tap the server refuses says why (and that
 * nothing was charged) instead of spinning forever; a page shown again after the order was paid
 * says so; the PIX countdown counts on the server's clock, not the phone's.
 */
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { DEMO } from "@/lib/services/accounts/demo-merchant";
import { DECLINED_CARD, GOOD_CARD, createLink, createTransaction, expectAccessible, fillCard, fillPayer, pathOf, readLink, screenshot } from "./checkout-helpers";

const PAYER = { name: "José da Silva", email: "jose@example.com", document: "11144477735" };

async function cardToken(request: APIRequestContext, pan: string): Promise<string> {
  const res = await request.post(`/api/v1/card-token?publicKey=${DEMO.publicKey}`, {
    data: { number: pan, holderName: "JOSE DA SILVA", expirationMonth: "12", expirationYear: "2034", cvv: "123" },
  });
  expect(res.ok()).toBe(true);
  return (await res.text()).trim();
}

/** What the page's pay route answers, posted as the page posts it. */
async function payLink(request: APIRequestContext, secureId: string, body: Record<string, unknown>) {
  const res = await request.post(`/checkout/${secureId}/pay`, { data: body });
  return { status: res.status(), body: (await res.json()) as { data?: { secureId: string; status: string } } };
}

/** Hydrated: the pay button shows its real label (before hydration it is disabled, "Carregando…"). */
async function hydrated(page: Page, testId: string) {
  await expect(page.getByTestId(testId)).not.toHaveText(/Carregando/);
}

test.describe("a pay tap the server refuses (F1)", () => {
  test("a link with too many refused cards: the message is shown, the card is set aside and PIX can be chosen", async ({ page, request }) => {
    const link = await createLink(request);
    const sid = pathOf(link.secureUrl).split("/").pop()!;
    // The page is open before the refusals (other tabs, other payers): it was drawn taking cards.
    await page.goto(pathOf(link.secureUrl));
    await hydrated(page, "link-submit");
    for (let i = 0; i < 5; i++) {
      const r = await payLink(request, sid, { method: "credit_card", payer: PAYER, cardToken: await cardToken(request, DECLINED_CARD), installments: 1 });
      expect(r.status).toBe(201);
      expect(r.body.data?.status).toBe("refused");
    }
    await page.getByTestId("method-credit_card").click();
    await fillPayer(page);
    await fillCard(page, GOOD_CARD);
    await page.getByRole("button", { name: "Pagar R$ 299,00" }).click();

    // Before: the button stayed on "Processando pagamento…", disabled, with no message.
    await expect(page.getByTestId("link-message")).toContainText("Este pedido teve muitas tentativas recusadas com cartão");
    await expect(page.getByTestId("link-message")).toContainText("Nada foi cobrado nesta tentativa.");
    await expect(page.getByTestId("link-submit")).toBeEnabled();
    await expect(page.getByTestId("link-submit")).toHaveText("Gerar código PIX");
    await expect(page.getByTestId("method-credit_card").locator("input")).toBeDisabled();
    await expectAccessible(page, "link card limit");
    await screenshot(page, "audit-link-card-limit");

    // The payer can still pay another way.
    await page.getByTestId("link-submit").click();
    await expect(page.getByRole("heading", { name: "Pague com PIX" })).toBeVisible();
  });

  test("a link that took all its charges says so instead of spinning", async ({ page, request }) => {
    const link = await createLink(request, { methods: ["pix"] });
    const sid = pathOf(link.secureUrl).split("/").pop()!;
    await page.goto(pathOf(link.secureUrl));
    await hydrated(page, "link-submit");
    for (let i = 0; i < 20; i++) expect((await payLink(request, sid, { method: "pix", payer: PAYER })).status).toBe(201);
    await fillPayer(page);
    await page.getByTestId("link-submit").click();
    await expect(page.getByTestId("link-message")).toContainText("Este link atingiu o limite de tentativas de pagamento. Nada foi cobrado nesta tentativa.");
    await expect(page.getByTestId("link-submit")).toHaveText("Gerar código PIX");
    await expect(page.getByTestId("link-submit")).toBeDisabled();
  });
});

test.describe("a pay tap that fails on the way (no answer the page can read)", () => {
  test("a 5xx from the pay route (a gateway timeout can come after the card was charged): the payer is told to look before paying again", async ({ page, request }) => {
    const link = await createLink(request);
    await page.route("**/checkout/*/pay", (route) => route.fulfill({ status: 504, contentType: "text/html", body: "<html><body>504 Gateway Time-out</body></html>" }));
    await page.goto(pathOf(link.secureUrl));
    await hydrated(page, "link-submit");
    await page.getByTestId("method-credit_card").click();
    await fillPayer(page);
    await fillCard(page, GOOD_CARD);
    await page.getByRole("button", { name: "Pagar R$ 299,00" }).click();
    await expect(page.getByTestId("link-message")).toContainText("O pagamento pode ter sido processado mesmo assim, então veja a situação antes de tentar de novo.");
    await expect(page.getByTestId("link-message")).not.toContainText("Algo deu errado");
    await expect(page.getByTestId("check-status")).toBeVisible();
    await screenshot(page, "audit-link-pay-504");
  });

  test("a 429 from the card's tokenization: nothing was charged, try again in a moment", async ({ page, request }) => {
    const link = await createLink(request);
    await page.route("**/api/v1/card-token*", (route) =>
      route.fulfill({ status: 429, contentType: "application/json", headers: { "retry-after": "30" }, body: JSON.stringify({ code: "rate_limited", message: "Too many requests" }) }),
    );
    await page.goto(pathOf(link.secureUrl));
    await hydrated(page, "link-submit");
    await page.getByTestId("method-credit_card").click();
    await fillPayer(page);
    await fillCard(page, GOOD_CARD);
    await page.getByRole("button", { name: "Pagar R$ 299,00" }).click();
    await expect(page.getByTestId("link-message")).toContainText("Muitas tentativas em pouco tempo. Nada foi cobrado. Aguarde um minuto e tente de novo.");
    await expect(page.getByTestId("check-status")).toHaveCount(0);
    await expect(page.getByTestId("link-submit")).toBeEnabled();
  });
});

test.describe("a link already at a cap when its page opens", () => {
  test("too many refused cards: the card is set aside from the start, with the reason, and PIX is chosen", async ({ page, request }) => {
    const link = await createLink(request);
    const sid = pathOf(link.secureUrl).split("/").pop()!;
    let last = "";
    for (let i = 0; i < 5; i++) {
      const r = await payLink(request, sid, { method: "credit_card", payer: PAYER, cardToken: await cardToken(request, DECLINED_CARD), installments: 1 });
      expect(r.body.data?.status).toBe("refused");
      last = r.body.data!.secureId;
    }
    // Another card on the last refused card's page: refused, in words that agree with the way out below them.
    await page.goto(`/checkout/${last}`);
    await hydrated(page, "card-submit");
    await fillCard(page, GOOD_CARD);
    await page.getByTestId("card-submit").click();
    await expect(page.getByTestId("retry-message")).toHaveText(
      "Não é possível tentar outro cartão para este pedido. Escolha outra forma de pagamento abaixo ou fale com a loja.",
    );
    await expect(page.getByRole("link", { name: "Escolher outra forma de pagamento" })).toBeVisible();
    await screenshot(page, "audit-refused-no-more-cards");

    await page.goto(pathOf(link.secureUrl));
    await hydrated(page, "link-submit");
    await expect(page.getByTestId("method-credit_card").locator("input")).toBeDisabled();
    await expect(page.getByTestId("link-message")).toContainText("Este pedido teve muitas tentativas recusadas com cartão");
    await expect(page.getByTestId("link-message")).not.toContainText("nesta tentativa");
    await expect(page.getByTestId("link-submit")).toHaveText("Gerar código PIX");
    await expect(page.getByTestId("link-submit")).toBeEnabled();
    await screenshot(page, "audit-link-card-limit-at-load");
  });

  test("all its charges issued: the reason from the start, and nothing to press", async ({ page, request }) => {
    const link = await createLink(request, { methods: ["pix"] });
    const sid = pathOf(link.secureUrl).split("/").pop()!;
    for (let i = 0; i < 20; i++) expect((await payLink(request, sid, { method: "pix", payer: PAYER })).status).toBe(201);
    await page.goto(pathOf(link.secureUrl));
    await hydrated(page, "link-submit");
    await expect(page.getByTestId("link-message")).toContainText("Este link atingiu o limite de tentativas de pagamento.");
    await expect(page.getByTestId("link-submit")).toBeDisabled();
  });
});

test.describe("paying an order that was paid meanwhile (F2)", () => {
  test("Back after paying a link shows the link as paid, not the form", async ({ page, request }) => {
    const link = await createLink(request, { methods: ["pix", "credit_card"] });
    await page.goto(pathOf(link.secureUrl));
    await hydrated(page, "link-submit");
    await page.getByTestId("method-credit_card").click();
    await fillPayer(page);
    await fillCard(page, GOOD_CARD);
    await page.getByRole("button", { name: "Pagar R$ 299,00" }).click();
    await expect(page.getByRole("heading", { name: "Pagamento confirmado!" })).toBeVisible();
    // The new view's heading has focus (a screen reader reads it, not the page's top).
    await expect(page.getByRole("heading", { name: "Pagamento confirmado!" })).toBeFocused();

    await page.goBack();
    await expect(page).toHaveURL(new RegExp(`${pathOf(link.secureUrl)}$`));
    // Before: the form came back (method reset to PIX) and stayed.
    await expect(page.getByTestId("paid-screen")).toBeVisible();
    await expect(page.getByTestId("link-submit")).toHaveCount(0);
  });

  test("a second tab paying a link already paid is told so, and nothing more is charged", async ({ page, context, request }) => {
    const link = await createLink(request, { methods: ["pix", "credit_card"] });
    const other = await context.newPage();
    for (const p of [page, other]) {
      await p.goto(pathOf(link.secureUrl));
      await hydrated(p, "link-submit");
      await p.getByTestId("method-credit_card").click();
      await fillPayer(p);
    }
    await fillCard(other, GOOD_CARD);
    await other.getByRole("button", { name: "Pagar R$ 299,00" }).click();
    await expect(other.getByTestId("paid-screen")).toBeVisible();

    await fillCard(page, "5555555555554444");
    await page.getByRole("button", { name: "Pagar R$ 299,00" }).click();
    // Before: a silent refresh to the first card's "Pagamento confirmado", nothing said about this card.
    await expect(page.getByTestId("link-message")).toContainText("Este pedido já foi pago.");
    await expect(page.getByTestId("link-message")).toContainText("Esta tentativa não foi cobrada: nenhum valor a mais foi lançado no seu cartão.");
    await expectAccessible(page, "link paid meanwhile");
    await screenshot(page, "audit-link-paid-meanwhile");
    await page.getByTestId("see-paid").click();
    await expect(page.getByTestId("paid-screen")).toContainText("Recebemos R$ 299,00");
    await expect(page.getByRole("heading", { name: "Pagamento confirmado!" })).toBeFocused();
    expect((await readLink(request, link.id)).status).toBe("paid");
  });

  test("another card for a refused charge, already paid in another tab: told so, no silent jump", async ({ page, context, request }) => {
    const refused = await createTransaction(request, { paymentMethod: "credit_card", ip: "203.0.113.9", card: { hash: await cardToken(request, DECLINED_CARD) } });
    expect(refused.status).toBe("refused");
    const other = await context.newPage();
    for (const p of [page, other]) {
      await p.goto(pathOf(refused.secureUrl));
      await hydrated(p, "card-submit");
    }
    await fillCard(other, GOOD_CARD);
    await other.getByTestId("card-submit").click();
    await expect(other.getByTestId("paid-screen")).toBeVisible();
    const paidUrl = other.url();

    await fillCard(page, "5555555555554444");
    await page.getByTestId("card-submit").click();
    await expect(page.getByTestId("retry-message")).toContainText("Este pedido já foi pago.");
    await expect(page.getByTestId("retry-message")).toContainText("Esta tentativa não foi cobrada");
    await expect(page).toHaveURL(pathOf(refused.secureUrl));
    await screenshot(page, "audit-retry-paid-meanwhile");
    await page.getByTestId("see-paid").click();
    await expect(page).toHaveURL(paidUrl);
    await expect(page.getByTestId("paid-screen")).toContainText("Visa final 4242");

    // Back to the refused charge's page: it follows the newest attempt instead of offering the form.
    await page.goBack();
    await expect(page.getByTestId("paid-screen")).toBeVisible();
  });
});

test.describe("the PIX countdown counts on the server's clock (F3)", () => {
  for (const [name, skewDays] of [
    ["2.2 days ahead", 2.2],
    ["1 day behind", -1],
  ] as const) {
    test(`with the phone's clock ${name}`, async ({ page, request }) => {
      const skew = skewDays * 86_400_000;
      await page.addInitScript((ms: number) => {
        const Real = Date;
        class Skewed extends Real {
          constructor(...args: unknown[]) {
            if (args.length === 0) super(Real.now() + ms);
            else super(...(args as [string]));
          }
          static now() {
            return Real.now() + ms;
          }
        }
        (window as unknown as { Date: DateConstructor }).Date = Skewed as unknown as DateConstructor;
      }, skew);
      const pix = await createTransaction(request, { paymentMethod: "pix", pix: { expiresInDays: 1 } });
      await page.goto(pathOf(pix.secureUrl));
      // The page runs on the skewed clock.
      expect(Math.abs((await page.evaluate(() => Date.now())) - Date.now() - skew)).toBeLessThan(60_000);
      // After the countdown has ticked on the phone (and after the first status poll's correction).
      await page.waitForTimeout(3500);
      // Before: "Expira em 00:00" in red (ahead), or a deadline instead of the countdown (behind).
      await expect(page.getByRole("timer")).toContainText(/Expira em 23:5\d:\d\d/);
      await screenshot(page, `audit-pix-clock-${skewDays > 0 ? "ahead" : "behind"}`);
    });
  }
});
