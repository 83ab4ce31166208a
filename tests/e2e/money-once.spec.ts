/**
 * Money taken once, in the browser:
 * - the dashboard's money forms (refund, cash-out) submitted twice at once (a double click, Enter
 *   pressed twice) make one operation: each render of a form carries its own idempotency key;
 * - a payment link's boleto, left open after the link was paid by PIX, sends the payer to the link,
 *   which reads paid.
 */
import { expect, test, type Page } from "@playwright/test";
import { DESKTOP, PHONE, basicAuth, createCharge, screenshot, signUp, statValue, type Merchant } from "./dashboard-helpers";
import { AUTH, createLink, pathOf } from "./checkout-helpers";

test.use({ locale: "pt-BR", timezoneId: "America/Sao_Paulo" });

/** Resolves when `n` server-action POSTs of the page have been answered. */
function serverActionsAnswered(page: Page, n: number): Promise<void> {
  let seen = 0;
  return new Promise((resolve) => {
    page.on("response", (res) => {
      if (res.request().method() === "POST" && res.request().headers()["next-action"] && ++seen === n) resolve();
    });
  });
}

/** Submits the form twice in one task, as a double click or Enter pressed twice does. */
async function doubleSubmit(page: Page, formLabel: string) {
  await page.getByRole("form", { name: formLabel }).evaluate((form: HTMLFormElement) => {
    form.requestSubmit();
    form.requestSubmit();
  });
}

test.describe("dashboard money forms submitted twice", () => {
  let merchant: Merchant;
  let paidId: number;

  test.beforeEach(async ({ page, request }) => {
    await page.setViewportSize(DESKTOP);
    merchant = await signUp(page, "Loja Clique Duplo");
    const pix = await createCharge(request, merchant, { paymentMethod: "pix", amount: 20_000 });
    const paid = await request.put(`/api/v1/transactions/${pix.id}/test`, { headers: { authorization: basicAuth(merchant) }, data: { status: "paid" } });
    expect(paid.status()).toBe(200);
    paidId = pix.id;
  });

  test("a refund confirmed twice at once is one refund", async ({ page, request }) => {
    await page.goto(`/dashboard/transactions/${paidId}`);
    await page.getByLabel("Parte do valor").check();
    await page.getByLabel("Valor do reembolso (R$)").fill("10,00");
    await page.getByRole("button", { name: "Revisar reembolso" }).click();
    await expect(page.getByText(`Reembolsar R$ 10,00 da transação #${paidId}?`)).toBeVisible();

    const answered = serverActionsAnswered(page, 2);
    await doubleSubmit(page, "Confirmar reembolso");
    await answered;
    await expect(page.getByText("Reembolso parcial feito. Total reembolsado: R$ 10,00.")).toBeVisible();

    const read = await request.get(`/api/v1/transactions/${paidId}`, { headers: { authorization: basicAuth(merchant) } });
    expect((await read.json()).data.refundedAmount).toBe(1_000);
    await page.reload();
    await expect(page.getByTestId("tx-refunded")).toHaveText("R$ 10,00");
    await expect(page.getByTestId("timeline").getByText("Reembolso parcial")).toHaveCount(1);

    // The page rendered again with a new key: a second refund, on purpose, is a refund.
    await page.getByLabel("Parte do valor").check();
    await page.getByLabel("Valor do reembolso (R$)").fill("10,00");
    await page.getByRole("button", { name: "Revisar reembolso" }).click();
    await page.getByRole("button", { name: "Confirmar reembolso" }).click();
    await expect(page.getByText("Reembolso parcial feito. Total reembolsado: R$ 20,00.")).toBeVisible();
  });

  test("a cash-out goes to the key whose holder the confirmation showed: fields frozen during the lookup, a key changed after it refused", async ({ page, request }) => {
    await page.goto("/dashboard/cash-out");
    // The lookup held back, as a slow DICT answers: the first server action the page calls.
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let holding = true;
    await page.route("**/dashboard/cash-out", async (route) => {
      if (holding && route.request().method() === "POST" && route.request().headers()["next-action"]) {
        holding = false;
        await held;
      }
      await route.continue();
    });
    await page.getByLabel("Valor (R$)").fill("1,00");
    await page.getByLabel("Chave PIX de destino").fill("joao.pereira@example.com");
    await page.getByRole("button", { name: "Revisar saque" }).click();
    await expect(page.getByRole("button", { name: "Consultando a chave…" })).toBeDisabled();
    // What is being checked cannot be changed under the lookup.
    for (const label of ["Valor (R$)", "Chave PIX de destino", "Tipo da chave", "Descrição (opcional)"]) {
      await expect(page.getByLabel(label)).toBeDisabled();
    }
    await screenshot(page, "cash-out-looking-up");
    release();
    await expect(page.getByTestId("confirm-key")).toHaveText("joao.pereira@example.com");
    const holder = await page.getByTestId("confirm-holder").textContent();
    expect(holder).toMatch(/ · /);
    await screenshot(page, "cash-out-confirm-frozen");

    // A send that is not of the key looked up (the form's key swapped after the lookup, as a post
    // that skipped the step would be): the server refuses it, and no cash-out is made.
    await page.locator('input[type="hidden"][name="pixKey"]').evaluate((el: HTMLInputElement) => (el.value = "maria.silva@example.com"));
    await page.getByRole("button", { name: "Confirmar saque" }).click();
    await expect(page.getByText("A confirmação do recebedor não vale para este saque")).toBeVisible();
    const none = await request.get("/api/v1/cashOut", { headers: { authorization: basicAuth(merchant) } });
    expect((await none.json()).data.pagination.total).toBe(0);

    // Reviewed again, the key shown is the key sent.
    await page.getByRole("button", { name: "Revisar saque" }).click();
    await expect(page.getByTestId("confirm-holder")).toHaveText(holder!);
    await page.getByRole("button", { name: "Confirmar saque" }).click();
    await expect(page.getByRole("status").filter({ hasText: "de R$ 1,00 solicitado." })).toBeVisible();
    const sent = await (await request.get("/api/v1/cashOut", { headers: { authorization: basicAuth(merchant) } })).json();
    expect(sent.data.data.map((c: { pixKey: string }) => c.pixKey)).toEqual(["joao.pereira@example.com"]);
  });

  test("a cash-out confirmed twice at once is one cash-out", async ({ page }) => {
    await page.goto("/dashboard/cash-out");
    const available = await page.getByTestId("cash-out-available").textContent();
    expect(available).toBe("R$ 198,02");
    await page.getByLabel("Valor (R$)").fill("50,00");
    await page.getByLabel("Chave PIX de destino").fill("financeiro@example.com");
    await page.getByRole("button", { name: "Revisar saque" }).click();
    await expect(page.getByTestId("confirm-balance-after")).toHaveText("R$ 148,02");

    const answered = serverActionsAnswered(page, 2);
    await doubleSubmit(page, "Confirmar saque");
    await answered;
    await expect(page.getByRole("status").filter({ hasText: "de R$ 50,00 solicitado." })).toBeVisible();

    await page.reload();
    await expect(page.getByTestId("cash-outs-table").locator("tbody tr")).toHaveCount(1);
    await expect(page.getByTestId("cash-out-available")).toHaveText("R$ 148,02");
    await page.goto("/dashboard");
    await expect(statValue(page, "balance-available")).toHaveText("R$ 148,02");
  });
});

test.describe("a payment link paid once", () => {
  test("the link's boleto, still open after the PIX paid the link, sends the payer to the link, which reads paid", async ({ page, request }) => {
    const link = await createLink(request, { methods: ["pix", "boleto"] });
    const payer = { name: "Maria da Silva", email: "maria@example.com", document: "111.444.777-35" };
    const issue = async (method: string) => {
      const res = await request.post(`/checkout/${link.secureId}/pay`, { data: { method, payer } });
      expect(res.status()).toBe(201);
      return (await res.json()).data.secureId as string;
    };
    const pix = await issue("pix");
    const boleto = await issue("boleto");
    const paid = await request.post(`/checkout/${pix}/simulate`, { data: {} });
    expect(paid.status()).toBe(200);
    // Paying the boleto too is refused: the order is paid.
    const twice = await request.post(`/checkout/${boleto}/simulate`, { data: {} });
    expect(twice.status()).toBe(409);
    const read = await request.get(`/api/v1/checkouts/${link.id}`, { headers: { authorization: AUTH } });
    expect((await read.json()).data.status).toBe("paid");

    for (const [size, name] of [
      [PHONE, "phone"],
      [DESKTOP, "desktop"],
    ] as const) {
      await page.setViewportSize(size);
      await page.goto(`/checkout/${boleto}`);
      await expect(page).toHaveURL(new RegExp(`${pathOf(link.secureUrl)}$`));
      await expect(page.getByTestId("paid-screen")).toBeVisible();
      await expect(page.getByTestId("paid-screen")).toContainText("Pago com PIX");
      await screenshot(page, `link-paid-from-open-boleto-${name}`);
    }
  });
});
