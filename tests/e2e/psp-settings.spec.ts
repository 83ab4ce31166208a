/**
 * "Recebimento PIX": a merchant configures the API Pix processor in the dashboard against a local
 * PSP (tests/helpers/api-pix-psp, real mutual TLS), uploading the client certificate, its key and
 * the PSP's CA; "Testar conexão" gets a token and reads the webhook registration; a PIX charge is
 * then made at the PSP, paid there, notified to the app, and reads `paid` with the PSP's e2e id; a
 * partial refund from the dashboard is asked of the PSP as a devolução and counted when it confirms.
 * Then cash-outs are sent through Efí's Pix Envio of the same PSP (the background job sends and
 * follows them) and one completes with Efí's end-to-end id. The dashboard shows that money apart
 * ("Na sua conta do PSP": the overview, the statement) and the cash-out form lets the merchant choose
 * it or the balance Arara holds (a card sale), each sent by its own payer. Last, the PSP returns part of
 * the sale by itself (MED): booked as a refund, and named on the transaction's timeline.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { makeTestPki, startApiPixPsp, type ApiPixPsp } from "../helpers/api-pix-psp";
import { basicAuth, createCharge, CUSTOMER, expectAccessible, signUp, statValue, tokenizeCard } from "./dashboard-helpers";

const KEY = "pagamentos@loja.example";
const PAYER_KEY = "saques@loja.example";
let psp: ApiPixPsp;
let dir: string;

test.beforeAll(async () => {
  // Scopes enforced as strict PSPs do: a token carries only the scopes its request asked.
  psp = await startApiPixPsp({ pki: makeTestPki(), keys: [KEY, PAYER_KEY], requireScopes: true, allowHttpWebhook: true });
  dir = mkdtempSync(path.join(os.tmpdir(), "psp-e2e-"));
  writeFileSync(path.join(dir, "client.crt"), psp.pki.client.certPem);
  writeFileSync(path.join(dir, "client.key"), psp.pki.client.keyPem);
  writeFileSync(path.join(dir, "psp-ca.crt"), psp.pki.ca.certPem);
  mkdirSync("test-results/psp-settings", { recursive: true });
});

test.afterAll(async () => {
  await psp?.close();
});

test("configure the API Pix processor in the dashboard and get a PIX charge paid through it", async ({ page, request }) => {
  const merchant = await signUp(page, "Loja PSP Própria");
  await page.getByLabel("Guardei minha chave secreta em um lugar seguro.").check();
  await page.getByRole("button", { name: "Ir para o painel" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Visão geral" })).toBeVisible();

  await page.goto("/dashboard/settings/pix");
  await expect(page.getByRole("heading", { level: 1, name: "Recebimento PIX" })).toBeVisible();
  await expect(page.getByTestId("psp-processor")).toHaveText("Sandbox");
  await page.getByLabel("Processador", { exact: true }).selectOption("api-pix");
  await page.getByLabel("URL da API Pix").fill(psp.baseUrl);
  await page.getByLabel("URL do token (OAuth2)").fill(psp.tokenUrl);
  await page.getByLabel("Client id").fill(psp.clientId);
  await page.getByLabel("Client secret").fill(psp.clientSecret);
  await page.getByLabel("Certificado do cliente").setInputFiles(path.join(dir, "client.crt"));
  await page.getByLabel("Chave privada (PEM)").setInputFiles(path.join(dir, "client.key"));
  await page.getByLabel("CA do servidor do PSP (opcional)").setInputFiles(path.join(dir, "psp-ca.crt"));
  await page.getByLabel("Chave PIX neste PSP").fill(KEY);
  // The defaults: HTTP Basic, and the API Pix operations' scopes asked (this PSP grants only what is asked).
  await expect(page.getByLabel("Autenticação do cliente no token")).toHaveValue("basic");
  await expect(page.getByLabel("Escopos pedidos no token")).toHaveValue("default");
  await expect(page.getByText("Pede: cob.write cob.read pix.write pix.read webhook.write webhook.read.")).toBeVisible();
  await expect(page.getByText("Ex.: https://pix.seubanco.com.br/api/v2")).toBeVisible();
  await page.getByRole("button", { name: "Salvar" }).click();
  await expect(page.getByRole("status")).toContainText("webhook registrado no PSP");
  await expect(page.getByTestId("psp-processor")).toHaveText("API Pix (seu PSP)");
  // The secret is never shown again.
  expect(await page.content()).not.toContain(psp.clientSecret);
  await expect(page.getByLabel("Client secret")).toHaveValue("");
  await expect(page.getByLabel("Processador", { exact: true })).toHaveValue("api-pix");

  const registered = psp.webhooks.get(KEY)!;
  expect(registered.webhookUrl).toMatch(/\/api\/v1\/psp\/api-pix\/[A-Za-z0-9_-]{43}$/);

  await page.getByRole("button", { name: "Testar conexão" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Conexão com o PSP funcionando" })).toBeVisible();
  for (const [label, size] of [["phone", { width: 412, height: 915 }], ["desktop", { width: 1280, height: 900 }]] as const) {
    await page.setViewportSize(size);
    await page.screenshot({ path: `test-results/psp-settings/configured-${label}.png`, fullPage: true });
  }

  // The PSP refusing the credentials (a secret revoked at the PSP) is the PSP's refusal in the built app
  // too: a 422 with its words, not a 500 (the error class was two copies in two chunks before).
  psp.expireTokens();
  psp.failNext(1, 401, "token");
  const refusedCharge = await request.post("/api/v1/transactions", {
    headers: { authorization: basicAuth(merchant) },
    data: { paymentMethod: "pix", amount: 1000, customer: CUSTOMER, items: [{ title: "Kit", unitPrice: 1000, quantity: 1, tangible: true }] },
  });
  expect(refusedCharge.status(), await refusedCharge.text()).toBe(422);
  expect((await refusedCharge.json()).message).toContain("recusou o client id ou o client secret");

  // A charge made now goes to the PSP; the payer pays it there and the PSP notifies the app.
  const charge = (await createCharge(request, merchant, { amount: 4990, pix: { expiresInDays: 1 } })) as unknown as {
    id: number;
    acquirerType: string;
    pix: { qrcode: string };
  };
  expect(charge.acquirerType).toBe("api-pix");
  const cob = [...psp.cobs.values()].find((c) => c.pixCopiaECola === charge.pix.qrcode)!;
  expect(cob.request.valor.original).toBe("49.90");
  const paid = await psp.pay(cob.txid, { notify: "deliver" });
  expect(psp.deliveries.at(-1)!.status).toBe(200);

  const res = await request.get(`/api/v1/transactions/${charge.id}`, { headers: { authorization: basicAuth(merchant) } });
  const t = (await res.json()).data;
  expect(t.status).toBe("paid");
  expect(t.pix.end2end).toBe(paid.endToEndId);

  await page.goto(`/dashboard/transactions/${charge.id}`);
  await expect(page.getByText(paid.endToEndId).first()).toBeVisible();
  await page.screenshot({ path: "test-results/psp-settings/paid-transaction.png", fullPage: true });

  // A partial refund from the dashboard: recorded and held first, then asked of the PSP as a
  // devolução; the transaction counts it when the PSP confirms.
  await page.setViewportSize({ width: 412, height: 915 });
  await page.getByLabel("Parte do valor").check();
  await page.getByLabel("Valor do reembolso (R$)").fill("10,00");
  await page.getByRole("button", { name: "Revisar reembolso" }).click();
  await expect(page.getByText("A devolução é pedida ao seu PSP")).toBeVisible();
  await page.getByRole("button", { name: "Confirmar reembolso" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Devolução de R$ 10,00 solicitada ao PSP." })).toBeVisible();
  await expect(page.getByTestId("psp-refund-open")).toContainText("Devolução em andamento no seu PSP: R$ 10,00");
  await expect(page.getByText("Tudo (R$ 39,90)")).toBeVisible();
  const devolucoes = psp.pix.get(paid.endToEndId)!.devolucoes;
  expect(devolucoes.map((d) => [d.valor, d.status])).toEqual([["10.00", "EM_PROCESSAMENTO"]]);
  await page.screenshot({ path: "test-results/psp-settings/refund-asked-phone.png", fullPage: true });
  psp.settleDevolucao(paid.endToEndId, devolucoes[0].id, "DEVOLVIDO");
  await psp.deliverWebhooks();
  await expect
    .poll(async () => (await (await request.get(`/api/v1/transactions/${charge.id}`, { headers: { authorization: basicAuth(merchant) } })).json()).data.refundedAmount, { timeout: 15_000 })
    .toBe(1000);
  await page.reload();
  await expect(page.getByTestId("psp-refund-open")).toHaveCount(0);
  await expect(page.getByTestId("tx-refunded")).toHaveText("R$ 10,00");
  await page.screenshot({ path: "test-results/psp-settings/refund-done-phone.png", fullPage: true });

  // Another one the PSP does not make: the page says so, and the amount is refundable again.
  await page.getByLabel("Parte do valor").check();
  await page.getByLabel("Valor do reembolso (R$)").fill("5,00");
  await page.getByRole("button", { name: "Revisar reembolso" }).click();
  await page.getByRole("button", { name: "Confirmar reembolso" }).click();
  await expect(page.getByTestId("psp-refund-open")).toContainText("R$ 5,00");
  const second = psp.pix.get(paid.endToEndId)!.devolucoes[1];
  psp.settleDevolucao(paid.endToEndId, second.id, "NAO_REALIZADO", "Conta do pagador encerrada");
  await psp.deliverWebhooks();
  await expect
    .poll(async () => {
      await page.reload();
      return page.getByTestId("psp-refund-failed").count();
    }, { timeout: 15_000 })
    .toBe(1);
  await expect(page.getByTestId("psp-refund-failed")).toContainText("A devolução de R$ 5,00 não foi realizada pelo seu PSP");
  await expect(page.getByTestId("psp-refund-failed")).toContainText("Conta do pagador encerrada");
  await expect(page.getByText("Tudo (R$ 39,90)")).toBeVisible();
  await page.screenshot({ path: "test-results/psp-settings/refund-failed-phone.png", fullPage: true });

  // The overview shows the PIX received at the PSP apart from what Arara holds (nothing yet).
  const auth = { authorization: basicAuth(merchant) };
  const balanceNow = async () => (await (await request.get("/api/v1/balance", { headers: auth })).json()).data as { available: number; availableAtPsp: number };
  expect(await balanceNow()).toMatchObject({ available: 0, availableAtPsp: 3941 });
  await page.goto("/dashboard");
  await expect(page.getByTestId("balance-at-psp")).toContainText("Na sua conta do PSP");
  await expect(statValue(page, "balance-at-psp")).toHaveText("R$ 39,41");
  await expect(statValue(page, "balance-available")).toHaveText("R$ 0,00");
  await expect(page.getByTestId("balance-available")).toContainText("Mantido pela Arara");
  await page.screenshot({ path: "test-results/psp-settings/overview-at-psp-phone.png", fullPage: true });

  // The cash-out form offers both sources, the PSP's first (the API's default for this account); without
  // Pix Envio set up it says so instead of sending.
  await page.goto("/dashboard/cash-out");
  await expect(page.getByTestId("cash-out-source-psp").getByRole("radio")).toBeChecked();
  await expect(page.getByTestId("cash-out-source-psp")).toContainText("R$ 39,41");
  await expect(page.getByTestId("cash-out-source-arara")).toContainText("R$ 0,00");
  await expect(page.getByTestId("cash-out-available")).toHaveText("R$ 39,41");
  await page.getByLabel("Valor (R$)").fill("5,00");
  await page.getByLabel("Chave PIX de destino").fill("maria@example.com");
  await page.getByRole("button", { name: "Revisar saque" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Os saques do saldo no seu PSP ainda não estão configurados" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Abrir Recebimento PIX" })).toBeVisible();
  await page.screenshot({ path: "test-results/psp-settings/cash-out-not-configured-phone.png", fullPage: true });
  // Arara's balance is empty: the form checks the chosen source's figure.
  await page.getByTestId("cash-out-source-arara").click();
  await expect(page.getByTestId("cash-out-available")).toHaveText("R$ 0,00");
  await page.getByRole("button", { name: "Revisar saque" }).click();
  await expect(page.getByText("Saldo insuficiente: o saldo na Arara é R$ 0,00.")).toBeVisible();

  // Without a payout set up, a cash-out is refused: the money is at the PSP, not with Arara.
  const refused = await request.post("/api/v1/cashOut/request", { headers: auth, data: { amount: 1000, pixKey: "maria@example.com" } });
  expect(refused.status()).toBe(422);
  expect((await refused.json()).message).toContain("payout_not_configured");

  await page.goto("/dashboard/settings/pix");
  await page.setViewportSize({ width: 412, height: 915 });
  await page.getByLabel("Enviar os saques pela Efí (Pix Envio), da minha conta Efí").check();
  await page.getByLabel("Chave PIX pagadora na Efí").fill(PAYER_KEY);
  await page.getByRole("button", { name: "Salvar" }).click();
  await expect(page.getByRole("status")).toContainText("webhook registrado no PSP");
  await expect(page.getByLabel("Chave PIX pagadora na Efí")).toHaveValue(PAYER_KEY);
  await expect(page.getByTestId("psp-payouts")).toHaveText(`Efí (Pix Envio), da chave ${PAYER_KEY}`);
  await page.screenshot({ path: "test-results/psp-settings/payout-efi-phone.png", fullPage: true });

  const requested = await request.post("/api/v1/cashOut/request", { headers: auth, data: { amount: 1000, pixKey: "maria@example.com" } });
  expect(requested.status()).toBe(201);
  const cashOutId = (await requested.json()).data.id as number;
  await expect.poll(() => [...psp.efi.sends.values()].find((s) => s.request.pagador.infoPagador === `Saque ${cashOutId}`)?.status, { timeout: 15_000 }).toBe("EM_PROCESSAMENTO");
  const sent = [...psp.efi.sends.values()].find((s) => s.request.pagador.infoPagador === `Saque ${cashOutId}`)!;
  expect(sent.request).toMatchObject({ valor: "10.00", pagador: { chave: PAYER_KEY }, favorecido: { chave: "maria@example.com" } });
  psp.efi.settle(sent.idEnvio, "REALIZADO");
  await expect
    .poll(async () => (await (await request.get(`/api/v1/cashOut/${cashOutId}`, { headers: auth })).json()).data, { timeout: 20_000 })
    .toMatchObject({ status: "completed", end2endId: sent.e2eId });

  // A card sale (settled at once in the e2e server) is money Arara holds: R$ 100,00 - (3,99% + 0,39).
  const card = await createCharge(request, merchant, { paymentMethod: "credit_card", amount: 10_000, ip: "203.0.113.10", card: { hash: await tokenizeCard(request, merchant) } });
  expect(card.status).toBe("paid");
  await expect.poll(async () => (await balanceNow()).available, { timeout: 15_000 }).toBe(9562);
  const atPsp = (await balanceNow()).availableAtPsp;
  const brl = (cents: number) => `R$ ${(cents / 100).toFixed(2).replace(".", ",")}`;
  await page.goto("/dashboard");
  await expect(statValue(page, "balance-available")).toHaveText("R$ 95,62");
  await expect(statValue(page, "balance-at-psp")).toHaveText(brl(atPsp));
  for (const [label, size] of [["phone", { width: 390, height: 844 }], ["desktop", { width: 1280, height: 900 }]] as const) {
    await page.setViewportSize(size);
    await page.screenshot({ path: `test-results/psp-settings/overview-both-${label}.png`, fullPage: true });
  }

  // A cash-out from "Saldo na Arara": confirmed as such, sent by Arara's payouts (the sandbox completes
  // it; nothing is asked of Efí), and taken from Arara's balance only.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/dashboard/cash-out");
  await expect(page.getByTestId("cash-out-source-psp").getByRole("radio")).toBeChecked();
  await expect(page.getByTestId("cash-out-available")).toHaveText(brl(atPsp));
  // Efí's Pix Envio is told only the key and has no lookup: the confirmation names no recipient (never
  // one no one checked) and asks the merchant to check the key.
  await page.getByLabel("Valor (R$)").fill("2,00");
  await page.getByLabel("Chave PIX de destino").fill("+55 61 99999-0000");
  await page.getByRole("button", { name: "Revisar saque" }).click();
  await expect(page.getByTestId("confirm-source")).toHaveText("Saldo no seu PSP (Efí)");
  await expect(page.getByTestId("confirm-holder-unchecked")).toContainText("Confira a chave");
  await expect(page.getByTestId("confirm-holder")).toHaveCount(0);
  await page.screenshot({ path: "test-results/psp-settings/cash-out-confirm-efi-phone.png", fullPage: true });
  await page.getByRole("button", { name: "Voltar" }).click();
  await page.getByTestId("cash-out-source-arara").click();
  await expect(page.getByTestId("cash-out-available")).toHaveText("R$ 95,62");
  await page.getByLabel("Valor (R$)").fill("20,00");
  await page.getByLabel("Chave PIX de destino").fill("111.444.777-35");
  await page.screenshot({ path: "test-results/psp-settings/cash-out-sources-phone.png", fullPage: true });
  await expectAccessible(page, "cash-out page with two sources");
  await page.getByRole("button", { name: "Revisar saque" }).click();
  await expect(page.getByTestId("confirm-source")).toHaveText("Saldo na Arara");
  await expect(page.getByTestId("confirm-holder")).toContainText("Sandbox");
  await expect(page.getByTestId("confirm-balance-after")).toHaveText("R$ 75,62");
  await page.screenshot({ path: "test-results/psp-settings/cash-out-confirm-arara-phone.png", fullPage: true });
  await page.getByRole("button", { name: "Confirmar saque" }).click();
  const done = page.getByRole("status").filter({ hasText: "de R$ 20,00 solicitado." });
  await expect(done).toBeVisible();
  const araraCashOutId = Number((await done.textContent())!.match(/Saque #(\d+)/)![1]);
  await expect(page.getByTestId("cash-outs-table").locator(`tr[data-cash-out-id="${araraCashOutId}"]`)).toContainText("do saldo na Arara");
  await expect(page.getByTestId("cash-outs-table").locator(`tr[data-cash-out-id="${cashOutId}"]`)).toContainText("do saldo no seu PSP");
  await expect
    .poll(async () => (await (await request.get(`/api/v1/cashOut/${araraCashOutId}`, { headers: auth })).json()).data.status, { timeout: 20_000 })
    .toBe("completed");
  expect([...psp.efi.sends.values()].some((s) => s.request.pagador.infoPagador === `Saque ${araraCashOutId}`)).toBe(false);
  expect(await balanceNow()).toMatchObject({ available: 7562, availableAtPsp: atPsp });
  await page.screenshot({ path: "test-results/psp-settings/cash-out-list-phone.png", fullPage: true });

  // The statement: the PSP's balance in the header, its own filter, and its entries marked among all.
  await page.goto("/dashboard/statement");
  await expect(page.getByTestId("statement-at-psp")).toContainText(brl(atPsp));
  await page.getByLabel("Saldo", { exact: true }).selectOption("available_at_psp");
  await page.getByRole("button", { name: "Filtrar" }).click();
  await expect(page).toHaveURL(/account=available_at_psp/);
  const rows = page.getByTestId("statement-table").locator("tbody tr");
  const entry = (name: string) => rows.filter({ has: page.getByRole("link", { name, exact: true }) });
  await expect(entry(`Pagamento da transação #${charge.id}`)).toHaveCount(1);
  await expect(entry(`Saque PIX #${cashOutId}`)).toHaveCount(1);
  await expect(entry(`Saque PIX #${araraCashOutId}`)).toHaveCount(0);
  await page.getByLabel("Saldo", { exact: true }).selectOption("all");
  await page.getByRole("button", { name: "Filtrar" }).click();
  await expect(entry(`Pagamento da transação #${charge.id}`)).toContainText("No seu PSP");
  await expect(entry(`Saque PIX #${araraCashOutId}`)).toContainText("Disponível");
  await expectAccessible(page, "statement page with the PSP's entries");
  for (const [label, size] of [["phone", { width: 390, height: 844 }], ["desktop", { width: 1280, height: 900 }]] as const) {
    await page.setViewportSize(size);
    await page.screenshot({ path: `test-results/psp-settings/statement-all-${label}.png`, fullPage: true });
  }

  // A form rendered while Pix Envio was set up, sent after it was turned off: the service's refusal
  // (payout_not_configured) is said in Portuguese in the form, not as an error page.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/dashboard/cash-out");
  const settings = await page.context().newPage();
  await settings.goto("/dashboard/settings/pix");
  await settings.getByLabel("Enviar os saques pela Efí (Pix Envio), da minha conta Efí").uncheck();
  await settings.getByRole("button", { name: "Salvar" }).click();
  await expect(settings.getByRole("status")).toContainText("webhook registrado no PSP");
  await settings.close();
  await page.getByLabel("Valor (R$)").fill("1,00");
  await page.getByLabel("Chave PIX de destino").fill("maria@example.com");
  await page.getByRole("button", { name: "Revisar saque" }).click();
  await expect(page.getByTestId("confirm-source")).toHaveText("Saldo no seu PSP (Efí)");
  await page.getByRole("button", { name: "Confirmar saque" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Os saques do saldo no seu PSP ainda não estão configurados" })).toBeVisible();
  expect(await balanceNow()).toMatchObject({ available: 7562, availableAtPsp: atPsp });
  await page.screenshot({ path: "test-results/psp-settings/cash-out-refused-phone.png", fullPage: true });

  // The PSP returns R$ 5,00 of the first sale by itself (MED, a fraud claim): booked as a refund from
  // the money at the PSP, and the transaction's timeline names it with the PSP's motivo, as text.
  const motivo = "Golpe do falso vendedor <b>confirmado</b>";
  psp.medReturn(paid.endToEndId, { amount: 500, natureza: "MED_FRAUDE", motivo });
  await psp.deliverWebhooks();
  await expect
    .poll(async () => (await (await request.get(`/api/v1/transactions/${charge.id}`, { headers: auth })).json()).data.refundedAmount, { timeout: 15_000 })
    .toBe(1500);
  expect(await balanceNow()).toMatchObject({ available: 7562, availableAtPsp: atPsp - 500 });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/dashboard/transactions/${charge.id}`);
  const medEntry = page.getByText("Devolução feita pelo PSP (MED: fraude): reembolso registrado", { exact: false });
  await expect(medEntry).toBeVisible();
  await expect(medEntry).toContainText(`motivo: “${motivo}”`);
  await expect(page.locator("b", { hasText: "confirmado" })).toHaveCount(0);
  await expect(page.getByTestId("tx-refunded")).toHaveText("R$ 15,00");
  await medEntry.scrollIntoViewIfNeeded();
  await page.screenshot({ path: "test-results/psp-settings/med-return-phone.png" });
});
