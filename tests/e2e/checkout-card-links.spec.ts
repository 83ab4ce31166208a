import { expect, test } from "@playwright/test";
import {
  DECLINED_CARD,
  GOOD_CARD,
  createLink,
  createTransaction,
  expectAccessible,
  expectPanOnlyToTokenization,
  expectSameWindow,
  fillCard,
  fillPayer,
  markWindow,
  pathOf,
  readLink,
  recordRequests,
  screenshot,
  watchConsole,
} from "./checkout-helpers";

test.describe("payment link: card", () => {
  test("approved at once; the card number goes only to tokenization", async ({ page, request }) => {
    const errors = watchConsole(page);
    const log = recordRequests(page);
    const link = await createLink(request);
    await page.goto(pathOf(link.secureUrl));
    await expect(page.getByTestId("order-amount")).toHaveText("R$ 299,00");
    await expect(page.getByText("Turma de março · 8 aulas online")).toBeVisible();
    await expectAccessible(page, "link open");
    await screenshot(page, "link-open");

    await page.getByTestId("method-credit_card").click();
    await fillPayer(page);
    await fillCard(page, GOOD_CARD);
    await expect(page.locator("[id$=\"-number-adornment\"]").getByText("Visa", { exact: true })).toBeVisible();
    await page.getByTestId("card-installments").selectOption("3");
    // R$ 299,00 in 3x: the first installment carries the 2 centavos the split leaves, and they add up to the total.
    await expect(page.getByTestId("card-installments").locator("option:checked")).toHaveText("1x de R$ 99,68 + 2x de R$ 99,66 sem juros");
    await expect(page.getByTestId("card-installments").locator("option").nth(11)).toHaveText("1x de R$ 24,99 + 11x de R$ 24,91 sem juros");
    await expect(page.getByTestId("installment-total")).toHaveText("1x de R$ 99,68 + 2x de R$ 99,66 sem juros: total no cartão R$ 299,00.");
    await expectAccessible(page, "link card form");
    await screenshot(page, "link-card-form");
    await page.getByRole("button", { name: "Pagar R$ 299,00" }).click();

    await expect(page.getByRole("heading", { name: "Pagamento confirmado!" })).toBeVisible();
    // The plan, then the time on a line of its own (after "sem juros" a date read as part of the plan).
    await expect(page.getByTestId("paid-via")).toHaveText("Pago com cartão de crédito · Visa final 4242 · 1x de R$ 99,68 + 2x de R$ 99,66 sem juros");
    await expect(page.getByTestId("paid-at")).toHaveText(/^Pagamento em \d{2}\/\d{2}\/\d{4} às\s\d{2}:\d{2}\s\(horário\sde\sBrasília\)$/);
    await expect(page.getByTestId("paid-screen")).toContainText("R$ 299,00");
    await expectAccessible(page, "card paid");
    await screenshot(page, "card-paid");
    expectPanOnlyToTokenization(log, GOOD_CARD);
    expect((await readLink(request, link.id)).status).toBe("paid");

    await page.goto(pathOf(link.secureUrl));
    await expect(page.getByTestId("paid-screen")).toBeVisible();
    expect(errors()).toEqual([]);
  });

  test("paid in installments with interest: the link's page says what the card was charged, as the charge's page does", async ({ page, request }) => {
    const link = await createLink(request, { installmentPlan: { maxInstallments: 6, interestFree: 1, monthlyRateBp: 199 } });
    await page.goto(pathOf(link.secureUrl));
    await page.getByTestId("method-credit_card").click();
    await fillPayer(page);
    await fillCard(page, GOOD_CARD);
    await page.getByTestId("card-installments").selectOption("6");
    await page.getByRole("button", { name: /^Pagar R\$/ }).click();
    const onCharge = page.getByTestId("paid-text");
    await expect(onCharge).toContainText("pedido de R$ 299,00 em 6x com juros");
    const charged = (await onCharge.textContent())!.match(/R\$\s[\d.]+,\d{2}/)![0];
    expect(charged).not.toBe("R$ 299,00");

    // The link opened again (from the chat it was sent in): the same words, the card's total first.
    await page.goto(pathOf(link.secureUrl));
    await expect(page.getByTestId("paid-text")).toHaveText((await onCharge.textContent())!);
    await expect(page.getByTestId("paid-text")).toContainText(charged);
    // Under "Recebemos R$ 3xx (pedido de R$ 299,00 em 6x com juros)" the summary is the order's, named so.
    await expect(page.locator("#order-total-label")).toHaveText("Total do pedido");
    await expect(page.getByTestId("order-amount")).toHaveText("R$ 299,00");
    await screenshot(page, "link-paid-interest");
  });

  test("refused, with the reason in Portuguese, then another card is approved for the same order", async ({ page, request }) => {
    const errors = watchConsole(page);
    const log = recordRequests(page);
    const link = await createLink(request, { externalRef: "pedido-retry" });
    await page.goto(pathOf(link.secureUrl));
    await page.getByTestId("method-credit_card").click();
    await fillPayer(page);
    await fillCard(page, DECLINED_CARD);
    await page.getByRole("button", { name: "Pagar R$ 299,00" }).click();

    await expect(page.getByRole("heading", { name: "Pagamento recusado" })).toBeVisible();
    await expect(page.getByTestId("refused-reason")).toHaveText("O banco emissor recusou o pagamento. Tente outro cartão ou fale com seu banco.");
    await expect(page.getByRole("heading", { name: "Tente com outro cartão" })).toBeVisible();
    await expectAccessible(page, "card refused");
    await screenshot(page, "card-refused");
    const refusedUrl = page.url();

    await fillCard(page, GOOD_CARD);
    await page.getByRole("button", { name: "Pagar R$ 299,00" }).click();
    await expect(page.getByRole("heading", { name: "Pagamento confirmado!" })).toBeVisible();
    expect(page.url()).not.toBe(refusedUrl);
    expectPanOnlyToTokenization(log, DECLINED_CARD);
    expectPanOnlyToTokenization(log, GOOD_CARD);

    // The refused charge's address now leads to the approved one.
    await page.goto(refusedUrl);
    await expect(page.getByTestId("paid-screen")).toBeVisible();
    const linkNow = await readLink(request, link.id);
    expect(linkNow.status).toBe("paid");
    expect(errors()).toEqual([]);
  });

  test("a card-only link's decline offers another card and no other way to pay; the client-rendered retry screen creates no inline script", async ({ page, request }) => {
    const errors = watchConsole(page);
    const link = await createLink(request, { methods: ["credit_card"] });
    await page.goto(pathOf(link.secureUrl));
    await markWindow(page);
    // The server rendered the early copy script; mark the element it made.
    const earlyScripts = () =>
      page.evaluate(() =>
        [...document.querySelectorAll("script:not([src])")]
          // The early copy script itself (not the page's RSC data, which may quote it).
          .filter((el) => el.textContent?.startsWith("(function(){") && el.textContent.includes("data-copy-live"))
          .map((el) => (el.hasAttribute("data-from-server") ? "server" : "client")),
      );
    await page.evaluate(() => {
      for (const el of document.querySelectorAll("script:not([src])")) if (el.textContent?.startsWith("(function(){")) el.setAttribute("data-from-server", "");
    });
    expect(await earlyScripts()).toEqual(["server"]);
    await fillPayer(page);
    await fillCard(page, DECLINED_CARD);
    await page.getByRole("button", { name: "Pagar R$ 299,00" }).click();

    await expect(page.getByRole("heading", { name: "Pagamento recusado" })).toBeVisible();
    await expectSameWindow(page); // moved by the client, not by a new document
    await expect(page.getByRole("heading", { name: "Tente com outro cartão" })).toBeVisible();
    // React never runs a <script> it creates on the client (and warns when it does): only the server's may be there.
    expect(await earlyScripts()).not.toContain("client");
    // The link takes cards only: going back to it would offer the same card form.
    await expect(page.getByText("Escolher outra forma de pagamento")).toHaveCount(0);
    await expectAccessible(page, "card-only link refused");
    await screenshot(page, "card-only-refused");
    expect(errors()).toEqual([]);
  });

  test("a card refused through the API can be paid with another card on its page", async ({ page, request }) => {
    const token = await request.post(`/api/v1/card-token?publicKey=pk_test_AraraDemoPublicKey0000000000`, {
      data: { number: DECLINED_CARD, holderName: "MARIA", expirationMonth: "12", expirationYear: "2034", cvv: "123" },
    });
    const tx = await createTransaction(request, { paymentMethod: "credit_card", ip: "203.0.113.9", card: { hash: await token.text() } });
    expect(tx.status).toBe("refused");
    await page.goto(pathOf(tx.secureUrl));
    await expect(page.getByTestId("refused-reason")).toBeVisible();
    await fillCard(page, "5555555555554444");
    await expect(page.locator("[id$=\"-number-adornment\"]").getByText("Mastercard", { exact: true })).toBeVisible();
    await page.getByRole("button", { name: "Pagar R$ 172,80" }).click();
    await expect(page.getByTestId("paid-screen")).toContainText("Mastercard final 4444");
  });

  test("checks the card in the browser before sending it anywhere", async ({ page, request }) => {
    const log = recordRequests(page);
    const link = await createLink(request, { methods: ["credit_card"] });
    await page.goto(pathOf(link.secureUrl));
    // Tabbing through the empty form flags nothing; a field typed in is checked when left.
    await page.getByTestId("payer-name").focus();
    for (let i = 0; i < 8; i++) await page.keyboard.press("Tab");
    await expect(page.getByText("Informe nome e sobrenome.")).toHaveCount(0);
    await expect(page.getByText("Informe o número do cartão.")).toHaveCount(0);
    await expect(page.locator("[aria-invalid=true]")).toHaveCount(0);
    await page.getByTestId("payer-name").fill("Maria");
    await page.getByTestId("payer-name").blur();
    await expect(page.getByText("Informe nome e sobrenome.")).toBeVisible();
    await page.getByTestId("payer-name").fill("");
    await page.getByTestId("payer-name").blur();
    await expect(page.getByText("Informe nome e sobrenome.")).toBeVisible();
    await fillPayer(page);
    await fillCard(page, "4242424242424241");
    await page.getByTestId("card-expiry").fill("01/20");
    await page.getByRole("button", { name: "Pagar R$ 299,00" }).click();
    await expect(page.getByText("Número do cartão inválido. Confira os dígitos.")).toBeVisible();
    await expect(page.getByText("Cartão vencido.")).toBeVisible();
    await expect(page.getByTestId("card-number")).toBeFocused();
    await expect(page.getByRole("alert").filter({ hasText: "Corrija os campos destacados." })).toBeVisible();
    expect(log.filter((r) => r.method === "POST")).toEqual([]);
    await expectAccessible(page, "card form errors");
    await screenshot(page, "card-form-errors");
  });
});

test.describe("payment link: PIX and boleto", () => {
  test("by PIX: the payer's details are checked, the PIX is issued, and the sandbox pays it", async ({ page, request }) => {
    const errors = watchConsole(page);
    const link = await createLink(request);
    await page.goto(pathOf(link.secureUrl));

    await page.getByRole("button", { name: "Gerar código PIX" }).click();
    await expect(page.getByText("Informe nome e sobrenome.")).toBeVisible();
    await expect(page.getByText("Informe um e-mail válido, como nome@exemplo.com.")).toBeVisible();
    await expect(page.getByText("Informe o CPF ou CNPJ.")).toBeVisible();
    await expect(page.getByTestId("payer-name")).toBeFocused();
    await page.getByTestId("payer-document").fill("11144477736");
    await expect(page.getByTestId("payer-document")).toHaveValue("111.444.777-36");
    await expectAccessible(page, "link errors");
    await screenshot(page, "link-errors");

    await fillPayer(page);
    await expect(page.getByTestId("payer-document")).toHaveValue("111.444.777-35");
    await page.getByRole("button", { name: "Gerar código PIX" }).click();
    await expect(page.getByRole("heading", { name: "Pague com PIX" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Escolher outra forma de pagamento" })).toHaveAttribute("href", pathOf(link.secureUrl));
    await markWindow(page);
    await page.getByRole("button", { name: "Simular pagamento (sandbox)" }).click();
    await expect(page.getByTestId("paid-screen")).toBeVisible({ timeout: 10_000 });
    await expectSameWindow(page);

    await page.goto(pathOf(link.secureUrl));
    await expect(page.getByTestId("paid-screen")).toContainText("Pago com PIX");
    await expectAccessible(page, "link paid");
    await screenshot(page, "link-paid");
    expect((await readLink(request, link.id)).status).toBe("paid");
    expect(errors()).toEqual([]);
  });

  test("the link opened again in another tab of the same browser gives the PIX already made; another browser gets its own", async ({ page, request, browser }) => {
    const link = await createLink(request);
    await page.goto(pathOf(link.secureUrl));
    await fillPayer(page);
    await page.getByRole("button", { name: "Gerar código PIX" }).click();
    await expect(page.getByRole("heading", { name: "Pague com PIX" })).toBeVisible();
    const first = page.url();

    // A second tab (the payer taps the link in the chat again) and fills the form again.
    const tab = await page.context().newPage();
    await tab.goto(pathOf(link.secureUrl));
    // This browser made it: the page offers to continue it.
    await expect(tab.getByText("Você já gerou um PIX para este pedido.")).toBeVisible();
    await expect(tab.getByTestId("continue-pending")).toHaveAttribute("href", new URL(first).pathname);
    await fillPayer(tab);
    await tab.getByRole("button", { name: "Gerar código PIX" }).click();
    await expect(tab.getByRole("heading", { name: "Pague com PIX" })).toBeVisible();
    expect(tab.url()).toBe(first);
    await tab.close();

    const other = await browser.newContext();
    try {
      const stranger = await other.newPage();
      const asked = stranger.waitForResponse((r) => r.url().endsWith("/pending"), { timeout: 3000 }).catch(() => null);
      await stranger.goto(new URL(pathOf(link.secureUrl), first).toString());
      // Someone else who opens the shared link is offered nothing of the other payer's charge, in the
      // page or after it (a browser with no key for the link does not even ask).
      await expect(stranger.getByTestId("payer-name")).toBeVisible();
      expect(await asked).toBeNull();
      await expect(stranger.getByTestId("continue-pending")).toHaveCount(0);
      expect(await stranger.content()).not.toContain(new URL(first).pathname.split("/").pop()!);
      await fillPayer(stranger);
      await stranger.getByRole("button", { name: "Gerar código PIX" }).click();
      await expect(stranger.getByRole("heading", { name: "Pague com PIX" })).toBeVisible();
      expect(stranger.url()).not.toBe(first);
    } finally {
      await other.close();
    }
  });

  test("by boleto, with a CNPJ; going back offers to continue the boleto", async ({ page, request }) => {
    const link = await createLink(request, { methods: ["boleto", "pix"] });
    await page.goto(pathOf(link.secureUrl));
    await page.getByTestId("method-boleto").click();
    await page.getByTestId("payer-name").fill("Padaria Pão Quente Ltda");
    await page.getByTestId("payer-email").fill("financeiro@paoquente.com.br");
    await page.getByTestId("payer-document").fill("11222333000181");
    await expect(page.getByTestId("payer-document")).toHaveValue("11.222.333/0001-81");
    await page.getByRole("button", { name: "Gerar boleto" }).click();
    await expect(page.getByRole("heading", { name: "Boleto bancário" })).toBeVisible();
    const pdf = await request.get((await page.getByTestId("boleto-pdf").getAttribute("href"))!);
    expect(pdf.headers()["content-type"]).toContain("application/pdf");
    const boletoUrl = page.url();

    await page.getByRole("link", { name: "Escolher outra forma de pagamento" }).click();
    await expect(page.getByText("Você já gerou um boleto para este pedido.")).toBeVisible();
    await page.getByTestId("continue-pending").click();
    await expect(page).toHaveURL(boletoUrl);
  });

  test("an expired link says so and offers nothing to pay", async ({ page, request }) => {
    const link = await createLink(request, { expiresAt: new Date(Date.now() + 1500).toISOString() });
    await page.waitForTimeout(2000);
    await page.goto(pathOf(link.secureUrl));
    await expect(page.getByRole("heading", { name: "Este link de pagamento expirou" })).toBeVisible();
    await expect(page.getByRole("button")).toHaveCount(0);
    await expectAccessible(page, "link expired");
    await screenshot(page, "link-expired");
  });
});
