import { readFileSync } from "node:fs";
import { expect, test, type Page } from "@playwright/test";
import { DEMO } from "@/lib/services/accounts/demo-merchant";
import { startReceiver, type Receiver } from "@/tests/helpers/webhook-receiver";
import {
  DESKTOP,
  PHONE,
  basicAuth,
  createCharge,
  expectAccessible,
  screenshot,
  signIn,
  signOut,
  signUp,
  statValue,
  tokenizeCard,
  type Merchant,
} from "./dashboard-helpers";

// One merchant goes through the whole story; the later tests use what it left behind.
test.describe.configure({ mode: "serial" });
// A merchant in Brazil: date inputs and the browser's formats in pt-BR.
test.use({ locale: "pt-BR", timezoneId: "America/Sao_Paulo" });

let merchant: Merchant;
let pixId: number;
let cashOutId: number;
let receiver: Receiver;

test.beforeAll(async () => {
  receiver = await startReceiver(() => ({ status: 200 }));
});
test.afterAll(async () => {
  await receiver?.close();
});

const money = (page: Page, testId: string) => statValue(page, testId);
// Next's route announcer is also role=alert; the forms' messages are the other ones.
const alertOf = (page: Page) => page.locator('[role="alert"]:not(#__next-route-announcer__)');

test.describe("merchant dashboard", () => {
  test("sign up, charge through the API, pay, refund, export, cash out, rotate the key, sign out", async ({ page, request }) => {
    test.setTimeout(180_000);
    await page.setViewportSize(DESKTOP);

    await test.step("sign up: the account is created and its secret key shown once", async () => {
      await page.goto("/signup");
      await expectAccessible(page, "sign-up page");
      await screenshot(page, "signup-desktop");
      merchant = await signUp(page, "Café Arara Ltda");
      await screenshot(page, "signup-keys-desktop");
      await page.getByLabel("Guardei minha chave secreta em um lugar seguro.").check();
      await page.getByRole("button", { name: "Ir para o painel" }).click();
      await expect(page.getByRole("heading", { level: 1, name: "Visão geral" })).toBeVisible();
      await expect(money(page, "balance-available")).toHaveText("R$ 0,00");
      await expect(page.getByTestId("volume-total")).toHaveText("R$ 0,00");
    });

    await test.step("charges made through the API with the new keys show in the table", async () => {
      const pix = await createCharge(request, merchant, { paymentMethod: "pix", amount: 10_000, externalRef: "pedido-1001", postbackUrl: `${receiver.url}/arara` });
      pixId = pix.id;
      expect(pix.status).toBe("pending");
      const hash = await tokenizeCard(request, merchant);
      const card = await createCharge(request, merchant, {
        paymentMethod: "credit_card",
        amount: 25_000,
        ip: "203.0.113.10",
        card: { hash },
        externalRef: "pedido-1002",
      });
      expect(card.status).toBe("paid");
      await createCharge(request, merchant, { paymentMethod: "boleto", amount: 5_000, externalRef: "pedido-1003" });

      await page.goto("/dashboard/transactions");
      const table = page.getByTestId("transactions-table");
      await expect(table.locator("tbody tr")).toHaveCount(3);
      await expect(table.locator(`tr[data-transaction-id="${pixId}"]`)).toContainText("Pendente");
      await expect(table.locator(`tr[data-transaction-id="${pixId}"]`)).toContainText("R$ 100,00");
      await expectAccessible(page, "transactions page");
      await screenshot(page, "transactions-desktop");

      await page.getByLabel("Status").selectOption("paid");
      await page.getByRole("button", { name: "Filtrar" }).click();
      await expect(page).toHaveURL(/status=paid/);
      await expect(table.locator("tbody tr")).toHaveCount(1);
      await expect(table).toContainText("R$ 250,00");

      await page.goto("/dashboard/transactions?q=pedido-1001");
      await expect(table.locator("tbody tr")).toHaveCount(1);
      await expect(table.locator(`tr[data-transaction-id="${pixId}"]`)).toBeVisible();
      await page.goto("/dashboard/transactions?q=joana.pereira@example.com&paymentMethod=boleto");
      await expect(table.locator("tbody tr")).toHaveCount(1);
      await expect(table).toContainText("Boleto");
    });

    await test.step("the sandbox pays the PIX from the detail page; the webhooks and their attempts show", async () => {
      await page.goto(`/dashboard/transactions/${pixId}`);
      await expect(page.getByRole("heading", { level: 1 })).toContainText(`Transação #${pixId}`);
      await expect(page.getByRole("heading", { level: 1 })).toContainText("Pendente");
      await expect(page.getByText("Joana Pereira", { exact: true })).toBeVisible();
      await expect(page.getByRole("cell", { name: /^Kit café especial/ })).toBeVisible();
      await page.getByRole("button", { name: "Simular pagamento" }).click();
      await expect(page.getByRole("status").filter({ hasText: "Status alterado para Pago." })).toBeVisible();
      await expect(page.getByRole("heading", { level: 1 })).toContainText("Pago");
      await expect(page.getByTestId("timeline")).toContainText("Pagamento recebido");

      // The dispatcher delivers both events (pending, paid) to the receiver; the page lists each attempt.
      await receiver.waitFor(() => receiver.delivered().size >= 2, 20_000, "two webhooks delivered");
      await expect(async () => {
        await page.reload();
        await expect(page.getByTestId("webhook-events").locator("li[data-event-id]")).toHaveCount(2);
        await expect(page.getByTestId("webhook-events").getByText("Entregue")).toHaveCount(2);
      }).toPass({ timeout: 15_000 });
      const paidEvent = page.getByTestId("webhook-events").locator("li[data-event-id]").nth(1);
      await expect(paidEvent).toContainText("paid");
      await expect(paidEvent).toContainText("HTTP 200");
      const hitsBefore = receiver.hits.length;
      await paidEvent.getByRole("button", { name: "Reenviar" }).click();
      await expect(paidEvent.getByText("Reenviado com sucesso (HTTP 200).")).toBeVisible();
      expect(receiver.hits.length).toBe(hitsBefore + 1);
      await page.reload();
      await expect(page.getByTestId("webhook-events").locator("li[data-event-id]").nth(1)).toContainText("(manual)");
    });

    await test.step("the overview shows the balance, the chart and the conversion", async () => {
      await page.goto("/dashboard");
      // PIX R$ 100,00 - 0,99% = 99,01; card R$ 250,00 - (3,99% + 0,39) = 239,63 (settles at once in the e2e server).
      await expect(money(page, "balance-available")).toHaveText("R$ 338,64");
      await expect(money(page, "balance-waiting")).toHaveText("R$ 0,00");
      await expect(money(page, "balance-reserved")).toHaveText("R$ 0,00");
      await expect(page.getByTestId("volume-total")).toHaveText("R$ 350,00");
      const bars = page.getByTestId("volume-chart").locator("g[data-date]");
      await expect(bars).toHaveCount(30);
      await expect(bars.last()).toHaveAttribute("data-total", "35000");
      const conv = page.getByTestId("conversion-table");
      await expect(conv.locator('tr[data-method="pix"]')).toContainText("100%");
      await expect(conv.locator('tr[data-method="boleto"]')).toContainText("0%");
      await expect(conv.locator('tr[data-method="credit_card"]')).toContainText("R$ 250,00");
      await expectAccessible(page, "overview page");
      await screenshot(page, "overview-desktop");
    });

    await test.step("a partial refund, confirmed, comes off the balance", async () => {
      await page.goto(`/dashboard/transactions/${pixId}`);
      await page.getByLabel("Parte do valor").check();
      await page.getByLabel("Valor do reembolso (R$)").fill("30,00");
      await page.getByRole("button", { name: "Revisar reembolso" }).click();
      await expect(page.getByText(`Reembolsar R$ 30,00 da transação #${pixId}?`)).toBeVisible();
      await screenshot(page, "transaction-refund-confirm-desktop");
      await page.getByRole("button", { name: "Confirmar reembolso" }).click();
      await expect(page.getByText("Reembolso parcial feito. Total reembolsado: R$ 30,00.")).toBeVisible();
      await expect(page.getByTestId("tx-refunded")).toHaveText("R$ 30,00");
      await expect(page.getByTestId("timeline")).toContainText("Reembolso parcial");
      // Still paid, with R$ 70,00 left to refund.
      await expect(page.getByRole("heading", { level: 1 })).toContainText("Pago");
      await expect(page.getByText("Tudo (R$ 70,00)")).toBeVisible();
      await expectAccessible(page, "transaction detail page");
      await screenshot(page, "transaction-detail-desktop");
      await page.goto("/dashboard");
      await expect(money(page, "balance-available")).toHaveText("R$ 308,64");
    });

    await test.step("the statement lists the entries with the running balance and exports them as CSV", async () => {
      await page.goto("/dashboard/statement");
      const rows = page.getByTestId("statement-table").locator("tbody tr");
      await expect(rows.first()).toContainText(`Reembolso da transação #${pixId}`);
      await expect(rows.first()).toContainText("-R$ 30,00");
      await expect(rows.first()).toContainText("R$ 308,64");
      await expect(page.getByTestId("statement-table")).toContainText(`Pagamento da transação #${pixId}`);
      await expectAccessible(page, "statement page");
      await screenshot(page, "statement-desktop");

      const [download] = await Promise.all([page.waitForEvent("download"), page.getByTestId("statement-export").click()]);
      expect(download.suggestedFilename()).toMatch(/^extrato-arara-\d{4}-\d{2}-\d{2}\.csv$/);
      const csv = readFileSync((await download.path())!, "utf8");
      const lines = csv.replace(/^\uFEFF/, "").trim().split("\r\n");
      expect(lines[0]).toBe("data;tipo;descricao;saldo;valor;saldo_apos;valor_centavos;saldo_apos_centavos;transacao;saque;lancamento");
      const byDescription = (d: string) => lines.find((l) => l.split(";")[2] === d)?.split(";");
      expect(byDescription(`Reembolso da transação #${pixId}`)?.slice(3, 9)).toEqual(["Disponível", "-30,00", "308,64", "-3000", "30864", String(pixId)]);
      expect(byDescription(`Pagamento da transação #${pixId}`)?.slice(4, 5)).toEqual(["100,00"]);
      expect(byDescription(`Tarifa da transação #${pixId}`)?.slice(4, 5)).toEqual(["-0,99"]);
      expect(lines).toHaveLength(1 + (await rows.count()));

      // Filtered by type, the export has only refunds.
      await page.getByLabel("Tipo").selectOption("refund");
      await page.getByRole("button", { name: "Filtrar" }).click();
      await expect(rows).toHaveCount(1);
      const [filtered] = await Promise.all([page.waitForEvent("download"), page.getByTestId("statement-export").click()]);
      const filteredLines = readFileSync((await filtered.path())!, "utf8").trim().split("\r\n");
      expect(filteredLines).toHaveLength(2);
      expect(filteredLines[1]).toContain("Reembolso");
    });

    await test.step("a PIX cash-out shows the fee and the balance after, then appears in the history", async () => {
      await page.goto("/dashboard/cash-out");
      await expect(page.getByTestId("cash-out-available")).toHaveText("R$ 308,64");
      await page.getByLabel("Valor (R$)").fill("50,00");
      await page.getByLabel("Chave PIX de destino").fill("111.444.777-35");
      await expect(page.getByText("CPF detectado: 11144477735")).toBeVisible();
      await page.getByLabel("Descrição (opcional)").fill("Retirada semanal");
      await screenshot(page, "cash-out-form-desktop");
      await page.getByRole("button", { name: "Revisar saque" }).click();
      await expect(page.getByTestId("confirm-fee")).toHaveText("R$ 0,00");
      await expect(page.getByTestId("confirm-balance-after")).toHaveText("R$ 258,64");
      await screenshot(page, "cash-out-confirm-desktop");
      await page.getByRole("button", { name: "Confirmar saque" }).click();
      const done = page.getByRole("status").filter({ hasText: "de R$ 50,00 solicitado." });
      await expect(done).toBeVisible();
      cashOutId = Number((await done.textContent())!.match(/Saque #(\d+)/)![1]);
      const row = page.getByTestId("cash-outs-table").locator(`tr[data-cash-out-id="${cashOutId}"]`);
      await expect(row).toContainText("R$ 50,00");
      await expect(row).toContainText("11144477735");
      // The sandbox PSP completes it in the background.
      await expect(async () => {
        await page.reload();
        await expect(page.getByTestId("cash-outs-table").locator(`tr[data-cash-out-id="${cashOutId}"]`)).toContainText("Concluído");
      }).toPass({ timeout: 20_000 });
      await expect(page.getByTestId("cash-out-available")).toHaveText("R$ 258,64");
      await expectAccessible(page, "cash-out page");
      await screenshot(page, "cash-out-desktop");
      await page.getByRole("link", { name: `#${cashOutId}` }).click();
      await expect(page.getByRole("heading", { level: 1 })).toContainText(`Saque #${cashOutId}`);
      await expect(page.getByRole("heading", { level: 1 })).toContainText("Concluído");
      await screenshot(page, "cash-out-detail-desktop");
    });

    await test.step("an invalid PIX key is refused in the form", async () => {
      await page.goto("/dashboard/cash-out");
      await page.getByLabel("Valor (R$)").fill("10,00");
      // Typed as a CPF (punctuation), with wrong check digits: refused, not taken for a phone number.
      await page.getByLabel("Chave PIX de destino").fill("123.456.789-00");
      await page.getByRole("button", { name: "Revisar saque" }).click();
      await expect(page.getByText("CPF inválido: confira os dígitos. Se for um celular, escreva com +55, como +55 11 98765-4321.")).toBeVisible();
      await page.getByLabel("Chave PIX de destino").fill("chave qualquer");
      await page.getByRole("button", { name: "Revisar saque" }).click();
      await expect(page.getByText("Use CPF, CNPJ, e-mail, celular com +55 (como +55 11 98765-4321) ou chave aleatória.")).toBeVisible();
      // An e-mail with CPF chosen as its type: said for what it is, not with a hint about phones.
      await page.getByLabel("Tipo da chave").selectOption("cpf");
      await page.getByLabel("Chave PIX de destino").fill("financeiro@cafe-arara.com.br");
      await page.getByRole("button", { name: "Revisar saque" }).click();
      await expect(page.getByText('Isto parece um e-mail, mas o tipo escolhido é CPF: escolha o tipo E-mail ou "Detectar automaticamente".')).toBeVisible();
      await page.getByLabel("Tipo da chave").selectOption("");
      await page.getByLabel("Valor (R$)").fill("9.999,00");
      await page.getByLabel("Chave PIX de destino").fill("financeiro@cafe-arara.com.br");
      await page.getByRole("button", { name: "Revisar saque" }).click();
      await expect(page.getByText(/^Saldo insuficiente: o disponível é R\$ 258,64/)).toBeVisible();
    });

    await test.step("payment links: create one and see it listed", async () => {
      await page.goto("/dashboard/payment-links");
      await page.getByLabel("Descrição").fill("Assinatura mensal de café");
      await page.getByLabel("Valor (R$)").fill("49,90");
      await page.getByLabel("Boleto").uncheck();
      await page.getByRole("button", { name: "Criar link" }).click();
      await expect(page.getByTestId("new-link-url")).toHaveText(/\/checkout\/[0-9a-f-]{36}$/);
      await expect(page.getByTestId("links-table")).toContainText("Assinatura mensal de café");
      await expect(page.getByTestId("links-table")).toContainText("R$ 49,90");
      await expect(page.getByTestId("links-table")).toContainText("PIX · Cartão");
      await expectAccessible(page, "payment links page");
      await screenshot(page, "payment-links-desktop");
    });

    await test.step("settings: the PIX receiving key is validated and saved; the fee plan is shown", async () => {
      await page.goto("/dashboard/settings");
      await expect(page.getByTestId("fee-plan")).toContainText("0,99%");
      await expect(page.getByTestId("fee-plan")).toContainText("R$ 3,49");
      await page.getByLabel("Chave", { exact: true }).fill("nao-e-uma-chave");
      await expect(page.getByText("Use CPF, CNPJ, e-mail, celular com +55 (como +55 11 98765-4321) ou chave aleatória.")).toBeVisible();
      await page.getByRole("button", { name: "Salvar alterações" }).click();
      await expect(alertOf(page)).toContainText("Revise os campos destacados.");
      await page.getByLabel("Chave", { exact: true }).fill("Financeiro@Cafe-Arara.com.br");
      await expect(page.getByText("E-mail válido: financeiro@cafe-arara.com.br")).toBeVisible();
      await page.getByRole("button", { name: "Salvar alterações" }).click();
      await expect(page.getByRole("status").filter({ hasText: "Dados salvos." })).toBeVisible();
      await page.reload();
      await expect(page.getByLabel("Chave", { exact: true })).toHaveValue("financeiro@cafe-arara.com.br");
      await expectAccessible(page, "settings page");
      await screenshot(page, "settings-desktop");
    });

    await test.step("rotating the secret key revokes the old one at once", async () => {
      await page.goto("/dashboard/developers");
      await expect(page.getByTestId("public-key")).toHaveText(merchant.publicKey);
      await expect(page.getByTestId("secret-key-hint")).toHaveText(`${merchant.secretKey.slice(0, 10)}…${merchant.secretKey.slice(-4)}`);
      await page.getByRole("button", { name: "Revelar" }).click();
      await expect(page.getByTestId("webhook-secret")).toHaveText(/^whsec_/);
      await screenshot(page, "developers-desktop");
      await page.getByRole("button", { name: "Gerar nova chave secreta" }).click();
      await page.getByRole("button", { name: "Revogar e gerar nova" }).click();
      const fresh = (await page.getByTestId("new-secret-key").textContent())!.trim();
      expect(fresh).toMatch(/^sk_test_/);
      expect(fresh).not.toBe(merchant.secretKey);

      const old = await request.get("/api/v1/company", { headers: { authorization: basicAuth(merchant) } });
      expect(old.status()).toBe(401);
      merchant = { ...merchant, secretKey: fresh };
      const now = await request.get("/api/v1/company", { headers: { authorization: basicAuth(merchant) } });
      expect(now.status()).toBe(200);
      await expectAccessible(page, "developers page");
      await screenshot(page, "developers-rotated-desktop");
    });

    await test.step("sign out ends the session", async () => {
      await signOut(page);
      await expect(page.getByText("Você saiu da sua conta.")).toBeVisible();
      await page.goto("/dashboard/transactions");
      await expect(page).toHaveURL(/\/login\?callbackUrl=%2Fdashboard%2Ftransactions$/);
      await screenshot(page, "login-desktop");
    });
  });

  test("signed out, pages and the CSV export send to the sign-in page, even past the proxy with a forged cookie", async ({ page, context, request, baseURL }) => {
    const res = await request.get("/dashboard/statement/export", { maxRedirects: 0 });
    expect([302, 303, 307]).toContain(res.status());
    expect(res.headers().location).toMatch(/\/login/);

    // A cookie the proxy sees but the server cannot verify: the page's own session check redirects.
    await context.addCookies([{ name: "next-auth.session-token", value: "forged", url: baseURL! }]);
    await page.goto(`/dashboard/transactions/${pixId}`);
    await expect(page).toHaveURL(/\/login$/);
    const exp = await page.request.get("/dashboard/statement/export", { maxRedirects: 0 });
    expect(exp.status()).toBe(303);

    // After signing in, the callback URL is honoured (only dashboard paths).
    await context.clearCookies();
    await page.goto("/login?callbackUrl=%2Fdashboard%2Fstatement");
    await page.getByLabel("E-mail").fill(merchant.email);
    await page.getByLabel("Senha", { exact: true }).fill(merchant.password);
    await page.getByRole("button", { name: "Entrar" }).click();
    await expect(page).toHaveURL(/\/dashboard\/statement$/);
    await context.clearCookies();
    await page.goto("/login?callbackUrl=https%3A%2F%2Fevil.example%2F");
    await page.getByLabel("E-mail").fill(merchant.email);
    await page.getByLabel("Senha", { exact: true }).fill(merchant.password);
    await page.getByRole("button", { name: "Entrar" }).click();
    await expect(page).toHaveURL(/127\.0\.0\.1:\d+\/dashboard$/);

    // A server action checks the session itself: a form left open after the session is gone changes nothing.
    await page.goto("/dashboard/settings");
    await page.getByLabel("Nome da empresa").fill("Nome trocado sem sessão");
    await context.clearCookies();
    await page.getByRole("button", { name: "Salvar alterações" }).click();
    await expect(page).toHaveURL(/\/login/);
    const company = await request.get("/api/v1/company", { headers: { authorization: basicAuth(merchant) } });
    expect((await company.json()).data.name).toBe("Café Arara Ltda");

    // The dashboard and its sign-in pages cannot be framed.
    const login = await page.goto("/login");
    expect(login?.headers()["x-frame-options"]).toBe("DENY");
    expect(login?.headers()["content-security-policy"]).toContain("frame-ancestors 'none'");
  });

  test("another merchant's transaction and cash-out are not found, and never listed", async ({ page }) => {
    await page.setViewportSize(DESKTOP);
    await signIn(page, DEMO.email, DEMO.password);
    const tx = await page.goto(`/dashboard/transactions/${pixId}`);
    expect(tx?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "Não encontrado" })).toBeVisible();
    await expect(page.getByText("Joana Pereira")).toHaveCount(0);
    const co = await page.goto(`/dashboard/cash-out/${cashOutId}`);
    expect(co?.status()).toBe(404);
    await expect(page.getByText("11144477735")).toHaveCount(0);

    await page.goto(`/dashboard/transactions?q=${pixId}`);
    await expect(page.getByText("Nenhuma transação encontrada")).toBeVisible();
    await page.goto("/dashboard/transactions?q=pedido-1001");
    await expect(page.getByText("Nenhuma transação encontrada")).toBeVisible();
    await page.goto("/dashboard/cash-out");
    await expect(page.locator(`tr[data-cash-out-id="${cashOutId}"]`)).toHaveCount(0);
    const [download] = await Promise.all([page.waitForEvent("download"), page.goto("/dashboard/statement").then(() => page.getByTestId("statement-export").click())]);
    expect(readFileSync((await download.path())!, "utf8")).not.toContain(`#${pixId}`);
    await signOut(page);
  });

  test("every page at phone width, with the collapsible menu", async ({ page }) => {
    await page.setViewportSize(PHONE);
    await page.goto("/login");
    await screenshot(page, "login-phone");
    await page.goto("/signup");
    await screenshot(page, "signup-phone");
    await signIn(page, merchant.email, merchant.password);
    const menu = page.getByRole("button", { name: "Abrir menu" });
    await expect(menu).toHaveAttribute("aria-expanded", "false");
    await expect(page.getByRole("link", { name: "Extrato" })).toBeHidden();
    await screenshot(page, "overview-phone");
    await menu.click();
    await expect(page.getByRole("button", { name: "Fechar menu" })).toHaveAttribute("aria-expanded", "true");
    await screenshot(page, "menu-open-phone");
    await page.getByRole("link", { name: "Extrato" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Extrato" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Transações" })).toBeHidden();
    await screenshot(page, "statement-phone");
    for (const [path, name] of [
      ["/dashboard/transactions", "transactions"],
      [`/dashboard/transactions/${pixId}`, "transaction-detail"],
      ["/dashboard/cash-out", "cash-out"],
      ["/dashboard/payment-links", "payment-links"],
      ["/dashboard/developers", "developers"],
      ["/dashboard/settings", "settings"],
    ] as const) {
      await page.goto(path);
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      // Nothing wider than the screen: tables stack, long keys wrap.
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, `${name} overflows horizontally`).toBeLessThanOrEqual(0);
      await screenshot(page, `${name}-phone`);
    }
    await expectAccessible(page, "settings page on a phone");
  });

  test("sign-in is throttled after 5 failures for an e-mail, with a clear message", async ({ page }) => {
    await page.setViewportSize(DESKTOP);
    await page.goto("/login");
    await page.getByLabel("E-mail").fill(merchant.email);
    for (let i = 0; i < 5; i++) {
      await page.getByLabel("Senha", { exact: true }).fill(`tentativa-errada-${i}`);
      await page.getByRole("button", { name: "Entrar" }).click();
      await expect(alertOf(page)).toHaveText("E-mail ou senha incorretos.");
    }
    // Now even the right password is refused for a while.
    await page.getByLabel("Senha", { exact: true }).fill(merchant.password);
    await page.getByRole("button", { name: "Entrar" }).click();
    await expect(alertOf(page)).toContainText("Muitas tentativas de acesso sem sucesso");
    await expect(alertOf(page)).toContainText("tente de novo em 15 minutos");
    await expect(page).toHaveURL(/\/login$/);
    await screenshot(page, "login-throttled-desktop");
  });
});
