/**
 * "Recebimento PIX": a merchant configures the API Pix processor in the dashboard against a local
 * PSP (tests/helpers/api-pix-psp, real mutual TLS), uploading the client certificate, its key and
 * the PSP's CA; "Testar conexão" gets a token and reads the webhook registration; a PIX charge is
 * then made at the PSP, paid there, notified to the app, and reads `paid` with the PSP's e2e id; a
 * partial refund from the dashboard is asked of the PSP as a devolução and counted when it confirms.
 * Then cash-outs are sent through Efí's Pix Envio of the same PSP (the background job sends and
 * follows them) and one completes with Efí's end-to-end id.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { makeTestPki, startApiPixPsp, type ApiPixPsp } from "../helpers/api-pix-psp";
import { basicAuth, createCharge, signUp } from "./dashboard-helpers";

const KEY = "pagamentos@loja.example";
const PAYER_KEY = "saques@loja.example";
let psp: ApiPixPsp;
let dir: string;

test.beforeAll(async () => {
  psp = await startApiPixPsp({ pki: makeTestPki(), keys: [KEY, PAYER_KEY] });
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

  // Without a payout set up, a cash-out is refused: the money is at the PSP, not with Arara.
  const auth = { authorization: basicAuth(merchant) };
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
});
