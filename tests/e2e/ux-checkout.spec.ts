/**
 * The payer's side of "trust to the last screen": the summary's lines add up to the total, the PIX
 * QR code can be saved as a PNG, "Já paguei" keeps waiting and explains the wait, and the success
 * screen names the order and the transaction and returns to the shop (a button, and by itself).
 * Each on a phone and a desktop viewport, with axe on every state.
 */
import { expect, test, type Page } from "@playwright/test";
import { mkdirSync } from "node:fs";
import { AUTH, CUSTOMER, expectAccessible, pathOf } from "./checkout-helpers";

const PHONE = { width: 412, height: 915 };
const DESKTOP = { width: 1440, height: 900 };

async function shot(page: Page, name: string) {
  const dir = process.env.UX_SCREENSHOTS || "test-results/ux";
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: `${dir}/${name}.png`, fullPage: true, animations: "disabled" });
}

for (const [label, viewport] of [
  ["phone", PHONE],
  ["desktop", DESKTOP],
] as const) {
  test.describe(`checkout on a ${label}`, () => {
    test.use({ viewport });

    test("a PIX with shipping: the lines add up, the QR code saves as PNG, 'Já paguei' waits, and the paid screen returns to the shop", async ({
      page,
      request,
      baseURL,
    }) => {
      test.setTimeout(90_000);
      const returnUrl = `${baseURL}/?voltou=${label}`;
      const res = await request.post("/api/v1/transactions", {
        headers: { authorization: AUTH },
        data: {
          paymentMethod: "pix",
          amount: 15_900,
          items: [{ title: "Cafeteira italiana", unitPrice: 14_900, quantity: 1, tangible: true }],
          shipping: { fee: 1_000 },
          customer: CUSTOMER,
          externalRef: `pedido-${label}-42`,
          returnUrl,
        },
      });
      expect(res.status(), await res.text()).toBe(201);
      const tx = (await res.json()).data as { id: number; secureUrl: string; returnUrl?: string };
      expect(tx.returnUrl).toBe(returnUrl);
      await page.goto(pathOf(tx.secureUrl));

      // R$ 149,00 of items and a total of R$ 159,00 explain themselves.
      const lines = page.getByTestId("order-lines");
      await expect(lines.getByTestId("line-items")).toHaveText("R$ 149,00");
      await expect(lines.getByTestId("line-shipping")).toHaveText("R$ 10,00");
      await expect(lines.getByTestId("line-total")).toHaveText("R$ 159,00");
      await expect(lines.getByTestId("line-discount")).toHaveCount(0);

      // "Salvar QR code": a PNG of the code, saved as a file.
      const save = page.getByTestId("pix-save-qr");
      await expect(save).toHaveAttribute("download", `pix-${tx.id}.png`);
      const png = await request.get((await save.getAttribute("href"))!);
      expect(png.status()).toBe(200);
      expect(png.headers()["content-type"]).toBe("image/png");
      expect((await png.body()).subarray(0, 8).toString("hex")).toBe("89504e470d0a1a0a");
      await expectAccessible(page, `pending PIX (${label})`);
      await shot(page, `pix-pending-${label}`);

      // "Já paguei": the page says why it waits, and keeps asking.
      await page.getByTestId("pix-paid").click();
      await expect(page.getByTestId("pix-waiting")).toContainText("Estamos confirmando seu pagamento");
      await expectAccessible(page, `PIX "já paguei" (${label})`);
      await shot(page, `pix-ja-paguei-${label}`);

      const paid = await request.put(`/api/v1/transactions/${tx.id}/test`, { headers: { authorization: AUTH }, data: { status: "paid" } });
      expect(paid.status(), await paid.text()).toBe(200);
      await expect(page.getByTestId("paid-screen")).toBeVisible({ timeout: 15_000 });
      await expect(page.getByTestId("order-ref")).toHaveText(`pedido-${label}-42`);
      await expect(page.getByTestId("tx-number")).toHaveText(`#${tx.id}`);
      await expect(page.getByTestId("return-to-store")).toHaveAttribute("href", returnUrl);
      await expect(page.getByTestId("auto-return")).toBeVisible();
      await expectAccessible(page, `paid with a return URL (${label})`);
      await shot(page, `pix-paid-${label}`);
      // And back to the shop by itself.
      await page.waitForURL(returnUrl, { timeout: 15_000 });
    });

    test("the payer can stay: 'Ficar nesta página' stops the automatic return; no return URL, no button", async ({ page, request, baseURL }) => {
      const returnUrl = `${baseURL}/?ficou=${label}`;
      const make = async (body: Record<string, unknown>) => {
        const res = await request.post("/api/v1/transactions", {
          headers: { authorization: AUTH },
          data: { paymentMethod: "pix", amount: 5_000, items: [{ title: "Pão de queijo", unitPrice: 5_000, quantity: 1, tangible: true }], customer: CUSTOMER, ...body },
        });
        expect(res.status()).toBe(201);
        const t = (await res.json()).data as { id: number; secureUrl: string };
        await request.put(`/api/v1/transactions/${t.id}/test`, { headers: { authorization: AUTH }, data: { status: "paid" } });
        return t;
      };
      const withUrl = await make({ returnUrl });
      await page.goto(pathOf(withUrl.secureUrl));
      await expect(page.getByTestId("paid-screen")).toBeVisible();
      // No shipping and no discount: the total needs no lines.
      await expect(page.getByTestId("order-lines")).toHaveCount(0);
      await page.getByRole("button", { name: "Ficar nesta página" }).click();
      await expect(page.getByTestId("auto-return")).toHaveCount(0);
      await page.waitForTimeout(9_000);
      expect(page.url()).toContain(pathOf(withUrl.secureUrl));

      const without = await make({});
      await page.goto(pathOf(without.secureUrl));
      await expect(page.getByTestId("paid-screen")).toBeVisible();
      await expect(page.getByTestId("tx-number")).toHaveText(`#${without.id}`);
      await expect(page.getByTestId("order-ref")).toHaveCount(0);
      await expect(page.getByTestId("return-to-store")).toHaveCount(0);
    });

    test("a payment link's returnUrl reaches the charge made from it", async ({ page, request, baseURL }) => {
      const returnUrl = `${baseURL}/?link=${label}`;
      const res = await request.post("/api/v1/checkouts", {
        headers: { authorization: AUTH },
        data: { items: [{ title: "Curso de barista", unitPrice: 19_900, quantity: 1 }], methods: ["pix"], returnUrl },
      });
      expect(res.status(), await res.text()).toBe(201);
      const link = (await res.json()).data as { secureUrl: string; returnUrl: string };
      expect(link.returnUrl).toBe(returnUrl);
      await page.goto(pathOf(link.secureUrl));
      await page.getByTestId("payer-name").fill("Maria da Silva");
      await page.getByTestId("payer-email").fill("maria@example.com");
      await page.getByTestId("payer-document").fill("11144477735");
      await page.getByTestId("link-submit").click();
      await expect(page.getByTestId("pix-code")).toBeVisible({ timeout: 15_000 });
      await page.getByRole("button", { name: "Simular pagamento (sandbox)" }).click();
      await expect(page.getByTestId("paid-screen")).toBeVisible({ timeout: 15_000 });
      await expect(page.getByTestId("return-to-store")).toHaveAttribute("href", returnUrl);
      await shot(page, `link-paid-${label}`);
    });
  });
}

for (const [label, viewport] of [
  ["phone", PHONE],
  ["desktop", DESKTOP],
] as const) {
  test(`the card form on a link: a submit with errors focuses the first invalid field in page order (${label})`, async ({ page, request }) => {
    await page.setViewportSize(viewport);
    const res = await request.post("/api/v1/checkouts", {
      headers: { authorization: AUTH },
      data: { items: [{ title: "Moedor de café", unitPrice: 34_900, quantity: 1 }], methods: ["credit_card"] },
    });
    expect(res.status()).toBe(201);
    await page.goto(pathOf(((await res.json()).data as { secureUrl: string }).secureUrl));
    await expect(page.getByTestId("link-submit")).toBeEnabled();
    // Everything empty: the payer's name (above the card) gets the focus, not the card number.
    await page.getByTestId("link-submit").click();
    await expect(page.getByTestId("payer-name")).toBeFocused();
    // The payer filled in, the card not: the card number is next.
    await page.getByTestId("payer-name").fill("Maria da Silva");
    await page.getByTestId("payer-email").fill("maria@example.com");
    await page.getByTestId("payer-document").fill("11144477735");
    await page.getByTestId("link-submit").click();
    await expect(page.getByTestId("card-number")).toBeFocused();
    await expectAccessible(page, `card form with errors (${label})`);
    await shot(page, `card-form-errors-${label}`);
  });
}

test("going back from a method on a payment link keeps the payer's name, e-mail and CPF", async ({ page, request }) => {
  for (const viewport of [PHONE, DESKTOP]) {
    await page.setViewportSize(viewport);
    const res = await request.post("/api/v1/checkouts", {
      headers: { authorization: AUTH },
      data: { items: [{ title: "Filtro de papel", unitPrice: 2_500, quantity: 1 }], methods: ["pix", "boleto"] },
    });
    expect(res.status()).toBe(201);
    const linkPath = pathOf(((await res.json()).data as { secureUrl: string }).secureUrl);
    await page.goto(linkPath);
    await expect(page.getByTestId("link-submit")).toBeEnabled();
    await page.getByTestId("payer-name").fill("Maria da Silva");
    await page.getByTestId("payer-email").fill("maria@example.com");
    await page.getByTestId("payer-document").fill("11144477735");
    await page.getByTestId("link-submit").click();
    await expect(page.getByTestId("pix-code")).toBeVisible({ timeout: 15_000 });
    await page.getByRole("link", { name: /outra forma/i }).click();
    await expect(page).toHaveURL(new RegExp(`${linkPath}$`));
    await expect(page.getByTestId("payer-name")).toHaveValue("Maria da Silva");
    await expect(page.getByTestId("payer-email")).toHaveValue("maria@example.com");
    await expect(page.getByTestId("payer-document")).toHaveValue("111.444.777-35");
    await shot(page, `link-back-keeps-payer-${viewport.width}`);
  }
});

test("a phone's page never scrolls sideways: a merchant's long word (a URL, a SKU, an order reference) wraps", async ({ page, request }) => {
  const PHONE_390 = { width: 390, height: 844 };
  await page.setViewportSize(PHONE_390);
  const url = "https://www.minhalojavirtual.com.br/pedidos/2026/11/29/7f3a9c2e41";
  const sku = "SKU-CAFETEIRA-ITALIANA-INOX-6XICARAS-REF-0000123456789ABCDEF";
  const widths = async () => page.evaluate(() => ({ doc: document.documentElement.scrollWidth, body: document.body.scrollWidth }));

  // The case the payer reported: POST /api/v1/checkouts {"amount":4990,"description":"Pedido https://…"}.
  const res = await request.post("/api/v1/checkouts", { headers: { authorization: AUTH }, data: { amount: 4990, description: `Pedido ${url}` } });
  expect(res.status(), await res.text()).toBe(201);
  await page.goto(pathOf(((await res.json()).data as { secureUrl: string }).secureUrl));
  await expect(page.getByRole("paragraph").filter({ hasText: url })).toBeVisible();
  expect(await widths()).toEqual({ doc: 390, body: 390 });
  await shot(page, "long-word-link-390");

  // A paid charge with a long order reference and item title.
  const tx = await request.post("/api/v1/transactions", {
    headers: { authorization: AUTH },
    data: { paymentMethod: "pix", amount: 4990, items: [{ title: sku, unitPrice: 4990, quantity: 1, tangible: true }], customer: CUSTOMER, externalRef: sku.repeat(3) },
  });
  expect(tx.status(), await tx.text()).toBe(201);
  const { id, secureUrl } = (await tx.json()).data as { id: number; secureUrl: string };
  await page.goto(pathOf(secureUrl));
  await page.getByText("Ver itens do pedido").click();
  await expect(page.getByText(sku, { exact: true })).toBeVisible();
  expect(await widths()).toEqual({ doc: 390, body: 390 });
  expect((await request.put(`/api/v1/transactions/${id}/test`, { headers: { authorization: AUTH }, data: { status: "paid" } })).status()).toBe(200);
  await page.reload();
  await expect(page.getByTestId("order-ref")).toHaveText(sku.repeat(3));
  expect(await widths()).toEqual({ doc: 390, body: 390 });
  await shot(page, "long-word-paid-390");
});

test("a text field's focus is as visible as a button's: a solid 3 px outline", async ({ page, request }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const res = await request.post("/api/v1/checkouts", { headers: { authorization: AUTH }, data: { amount: 4990, methods: ["credit_card"] } });
  await page.goto(pathOf(((await res.json()).data as { secureUrl: string }).secureUrl));
  await expect(page.getByTestId("link-submit")).toBeEnabled();
  await page.getByTestId("payer-name").focus();
  await page.keyboard.press("Tab");
  const email = page.getByTestId("payer-email");
  await expect(email).toBeFocused();
  const ring = await email.evaluate((el) => {
    const cs = getComputedStyle(el);
    return { style: cs.outlineStyle, width: cs.outlineWidth, color: cs.outlineColor };
  });
  // #2563eb: 5.2:1 against the white page (the 25 % ring was about 1.3:1).
  expect(ring).toEqual({ style: "solid", width: "3px", color: "rgb(37, 99, 235)" });
  await shot(page, "input-focus-390");
});
