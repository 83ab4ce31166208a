import { expect, test } from "@playwright/test";
import {
  AUTH,
  TOTAL,
  createTransaction,
  expectAccessible,
  expectSameWindow,
  expireTransaction,
  markWindow,
  pathOf,
  screenshot,
  watchConsole,
} from "./checkout-helpers";

test.describe("hosted checkout: PIX", () => {
  test("the copy button works before the page's JavaScript has loaded (a slow phone): the server's early copy script", async ({ page, context, request }) => {
    const tx = await createTransaction(request, { paymentMethod: "pix", pix: { expiresInDays: 1 } });
    await context.grantPermissions(["clipboard-read", "clipboard-write"]);
    // The page's bundles never arrive: React never hydrates; only the inline script of the server's HTML runs.
    await page.route("**/_next/static/**/*.js", (route) => route.abort());
    await page.goto(pathOf(tx.secureUrl));
    await page.getByRole("button", { name: "Copiar código PIX" }).click();
    await expect(page.getByRole("button", { name: "Código copiado!" })).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(tx.pix!.qrcode);
    // Nothing hydrated it: the button is still the server's (React marks it live when it mounts).
    await expect(page.getByRole("button", { name: "Código copiado!" })).not.toHaveAttribute("data-copy-live", /.*/);
  });

  test("shows the QR code and the code, copies it, and turns to the success screen when the sandbox pays it, without a reload", async ({
    page,
    context,
    request,
  }) => {
    const errors = watchConsole(page);
    // A one-day PIX: under a day left, the page counts down.
    const tx = await createTransaction(request, { paymentMethod: "pix", pix: { expiresInDays: 1 } });
    await context.grantPermissions(["clipboard-read", "clipboard-write"]);

    const res = await page.goto(pathOf(tx.secureUrl));
    expect(res?.status()).toBe(200);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Loja Demo Arara");
    await expect(page.getByTestId("order-amount")).toHaveText("R$ 172,80");
    await expect(page.getByRole("heading", { name: "Pague com PIX" })).toBeVisible();
    await expect(page.getByTestId("status-pill")).toHaveText("Aguardando pagamento");
    await expect(page.getByRole("img", { name: "QR code PIX de R$ 172,80" }).locator("svg")).toBeVisible();
    await expect(page.getByTestId("pix-code")).toHaveText(tx.pix!.qrcode);
    await expect(page.getByRole("timer")).toContainText(/Expira em 2[34]:\d{2}:\d{2}/);
    await expect(page.getByText("Modo de teste")).toBeVisible();
    await expectAccessible(page, "pix pending");
    await screenshot(page, "pix-pending-pt");

    await page.getByRole("button", { name: "Copiar código PIX" }).click();
    await expect(page.getByRole("button", { name: "Código copiado!" })).toBeVisible();
    await expect(page.getByRole("status").filter({ hasText: "Código copiado!" })).toHaveCount(1);
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(tx.pix!.qrcode);
    await screenshot(page, "pix-copied");

    await markWindow(page);
    await page.getByRole("button", { name: "Simular pagamento (sandbox)" }).click();
    await expect(page.getByRole("heading", { name: "Pagamento confirmado!" })).toBeVisible({ timeout: 10_000 });
    await expect(page.getByRole("heading", { name: "Pagamento confirmado!" })).toBeFocused();
    await expect(page.getByTestId("paid-screen")).toContainText(`Recebemos R$ 172,80 para Loja Demo Arara.`);
    // The screen was drawn by the server while the PIX was pending: the time comes from the status poll.
    await expect(page.getByTestId("paid-at")).toHaveText(/^Pagamento em \d{2}\/\d{2}\/\d{4} às\s\d{2}:\d{2}\s\(horário\sde\sBrasília\)$/);
    const paidAt = await page.getByTestId("paid-at").textContent();
    await expect(page.getByRole("button", { name: "Copiar código PIX" })).toHaveCount(0);
    await expect(page.getByText("Aguardando pagamento")).toHaveCount(0);
    await expect(page.getByText("Total a pagar")).toHaveCount(0);
    await expectSameWindow(page);
    await expectAccessible(page, "pix paid");
    await screenshot(page, "pix-paid");

    // A reload renders the paid state from the server too.
    await page.reload();
    await expect(page.getByTestId("paid-screen")).toContainText("Pago com PIX");
    await expect(page.getByTestId("paid-at")).toHaveText(paidAt!);
    expect(errors()).toEqual([]);
  });

  test("offline, the page says it cannot check the payment and not to pay again; back online, it finds the payment at once", async ({ page, context, request }) => {
    const tx = await createTransaction(request, { paymentMethod: "pix", pix: { expiresInDays: 1 } });
    await page.goto(pathOf(tx.secureUrl));
    await expect(page.getByRole("heading", { name: "Pague com PIX" })).toBeVisible();
    await expect(page.getByTestId("offline-notice")).toHaveCount(0);
    await context.setOffline(true);
    await expect(page.getByTestId("offline-notice")).toHaveText(
      "Sem conexão com a internet. Vamos conferir o pagamento assim que ela voltar; se você já pagou, não pague de novo.",
    );
    await screenshot(page, "pix-offline");
    // Paid meanwhile (the payer's bank app has its own connection).
    const paid = await request.put(`/api/v1/transactions/${tx.id}/test`, { headers: { authorization: AUTH }, data: { status: "paid" } });
    expect(paid.status()).toBe(200);
    await context.setOffline(false);
    await expect(page.getByRole("heading", { name: "Pagamento confirmado!" })).toBeVisible({ timeout: 10_000 });
    await expect(page.getByTestId("offline-notice")).toHaveCount(0);
  });

  test("speaks English with ?lang=en, and keeps it in a cookie", async ({ page, request }) => {
    const errors = watchConsole(page);
    const tx = await createTransaction(request, { paymentMethod: "pix" });
    await page.goto(`${pathOf(tx.secureUrl)}?lang=en`);
    await expect(page.getByRole("heading", { name: "Pay with PIX" })).toBeVisible();
    // Two days to pay: the deadline, in Brasília time and saying so.
    await expect(page.getByText(/^Valid until [A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2}\s?[AP]M \(Brasília\stime\)$/)).toBeVisible();
    await expect(page.getByText("Total to pay")).toBeVisible();
    await expect(page.locator("[lang=en]").first()).toBeVisible();
    // The document too, for the browser's translation offer and screen readers' voice.
    await expect(page.locator("html")).toHaveAttribute("lang", "en");
    await expect(page.getByRole("button", { name: "Copy PIX code" })).toBeVisible();
    await expectAccessible(page, "pix pending (en)");
    await screenshot(page, "pix-pending-en");
    await page.goto(pathOf(tx.secureUrl));
    await expect(page.getByRole("heading", { name: "Pay with PIX" })).toBeVisible();
    await page.getByRole("link", { name: "Mudar para português" }).click();
    await expect(page.getByRole("heading", { name: "Pague com PIX" })).toBeVisible();
    await expect(page.locator("html")).toHaveAttribute("lang", "pt-BR");
    await expect(page.getByText(/^Válido até \d{2}\/\d{2}\/\d{4} às\s\d{2}:\d{2}\s\(horário\sde\sBrasília\)$/)).toBeVisible();
    expect(errors()).toEqual([]);
  });

  test("an expired PIX says so and offers nothing to pay", async ({ page, request }) => {
    const tx = await createTransaction(request, { paymentMethod: "pix" });
    test.skip(!(await expireTransaction(tx.secureId)), "needs PostgreSQL to move the expiry into the past");
    await page.goto(pathOf(tx.secureUrl));
    await expect(page.getByRole("heading", { name: "Este PIX expirou" })).toBeVisible();
    // Made through the API, not from a link: the shop makes a new charge.
    await expect(page.getByTestId("expired-screen")).toContainText("Peça uma nova cobrança à loja.");
    await expect(page.getByTestId("pix-code")).toHaveCount(0);
    await expect(page.getByRole("button", { name: /Copiar|Simular/ })).toHaveCount(0);
    await expectAccessible(page, "pix expired");
    await screenshot(page, "pix-expired");
    // Its QR code is no longer served: the browser gets a page that says why.
    const qr = await page.goto(`${pathOf(tx.secureUrl)}/qr.png`);
    expect(qr?.status()).toBe(410);
    await expect(page.getByRole("heading", { name: "Este PIX expirou" })).toBeVisible();
    await screenshot(page, "pix-expired-qr-png");
  });
});

test.describe("hosted checkout: boleto", () => {
  test("shows the due date, the line to copy, the barcode and the PDF; the sandbox clears it", async ({ page, context, request }) => {
    const errors = watchConsole(page);
    const tx = await createTransaction(request, { paymentMethod: "boleto" });
    await context.grantPermissions(["clipboard-read", "clipboard-write"]);
    await page.goto(pathOf(tx.secureUrl));
    await expect(page.getByRole("heading", { name: "Boleto bancário" })).toBeVisible();
    await expect(page.getByTestId("boleto-line")).toHaveText(tx.boleto!.digitableLine);
    await expect(page.getByTestId("boleto-due")).toHaveText(/^\d{2}\/\d{2}\/\d{4}$/);
    await expect(page.getByRole("img", { name: "Código de barras do boleto" })).toBeVisible();
    // Interleaved 2 of 5 of 44 digits: 22 pairs x 5 bars + start 2 + stop 2 = 114 bars.
    expect(((await page.getByTestId("boleto-barcode").locator("path").getAttribute("d")) ?? "").split("z").length - 1).toBe(114);
    await expectAccessible(page, "boleto pending");
    await screenshot(page, "boleto-pending");

    await page.getByRole("button", { name: "Copiar linha digitável" }).click();
    await expect(page.getByRole("button", { name: "Linha digitável copiada!" })).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(tx.boleto!.digitableLine.replace(/\D/g, ""));

    const href = await page.getByTestId("boleto-pdf").getAttribute("href");
    expect(href).toBe(`/checkout/${tx.secureId}/boleto.pdf`);
    const pdf = await request.get(href!);
    expect(pdf.status()).toBe(200);
    expect(pdf.headers()["content-type"]).toContain("application/pdf");
    expect((await pdf.body()).subarray(0, 4).toString("latin1")).toBe("%PDF");
    // The page's CSP (object-src 'none') would stop the browser's PDF viewer: the PDF has none.
    expect(pdf.headers()["content-security-policy"]).toBeUndefined();
    expect(pdf.headers()["x-content-type-options"]).toBe("nosniff");

    await markWindow(page);
    await page.getByRole("button", { name: "Simular pagamento (sandbox)" }).click();
    await expect(page.getByTestId("paid-screen")).toBeVisible({ timeout: 10_000 });
    await expect(page.getByTestId("paid-screen")).toContainText("R$ 172,80");
    await expectSameWindow(page);
    await screenshot(page, "boleto-paid");
    expect(errors()).toEqual([]);
  });
});

test.describe("hosted checkout: page", () => {
  test("an unknown id is a 404 page in Portuguese", async ({ page }) => {
    const res = await page.goto("/checkout/00000000-0000-4000-8000-000000000000");
    expect(res?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "Pagamento não encontrado" })).toBeVisible();
    await expectAccessible(page, "not found");
    await screenshot(page, "not-found");
    await page.getByRole("link", { name: "Switch to English" }).click();
    await expect(page.getByRole("heading", { name: "Payment not found" })).toBeVisible();
    expect((await page.goto("/checkout/not-a-uuid"))?.status()).toBe(404);
  });

  test("is served with a nonce CSP, no framing, no referrer, nosniff and a permissions policy", async ({ page, request }) => {
    const errors = watchConsole(page);
    const tx = await createTransaction(request, { paymentMethod: "pix", amount: TOTAL });
    const res = await page.goto(pathOf(tx.secureUrl));
    const h = res!.headers();
    const csp = h["content-security-policy"];
    expect(csp).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+' 'strict-dynamic'/);
    expect(csp).not.toContain("unsafe-inline");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(h["referrer-policy"]).toBe("no-referrer");
    expect(h["x-content-type-options"]).toBe("nosniff");
    expect(h["x-frame-options"]).toBe("DENY");
    expect(h["permissions-policy"]).toContain("camera=()");
    // Next's scripts carry the nonce of this response, and the page hydrated under the policy.
    const nonce = /'nonce-([^']+)'/.exec(csp)![1];
    const scripts = await page.locator("script").evaluateAll((els) => els.map((e) => (e as HTMLScriptElement).nonce));
    expect(scripts.length).toBeGreaterThan(0);
    for (const n of scripts) expect(n).toBe(nonce);
    await expect(page.getByRole("button", { name: "Simular pagamento (sandbox)" })).toBeEnabled();
    expect(errors()).toEqual([]);
  });
});
