/**
 * The merchant side of "brand and trust": passwords never in a URL, Portuguese everywhere (refusal
 * and cash-out failure reasons, 404, derived "Expirado", no simulation that would fail, no fee on a
 * refused charge), phone ergonomics (16 px inputs, the cash-out form first, whole rows tappable), a
 * CSV export a pt-BR spreadsheet reads as dates and numbers (checked with LibreOffice), and /docs
 * declared in English and clean under axe. Each on a phone and a desktop viewport.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, copyFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import {
  DESKTOP,
  PHONE,
  basicAuth,
  createCharge,
  expectAccessible,
  signUp,
  tokenizeCard,
  type Merchant,
} from "./dashboard-helpers";
import { expireTransaction } from "./checkout-helpers";
import { mkdirSync } from "node:fs";

test.use({ locale: "pt-BR", timezoneId: "America/Sao_Paulo" });
test.describe.configure({ mode: "serial" });

async function shot(page: Page, name: string) {
  const dir = process.env.UX_SCREENSHOTS || "test-results/ux";
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: `${dir}/${name}.png`, fullPage: true, animations: "disabled" });
}

/** Every input, select and textarea on the page renders at 16 px or more (no zoom on focus on phones). */
async function expectNoZoomInputs(page: Page, what: string) {
  const small = await page.evaluate(() =>
    [...document.querySelectorAll("input:not([type=hidden]):not([type=checkbox]):not([type=radio]), select, textarea")]
      .map((el) => ({ id: el.id || el.getAttribute("name") || el.tagName, size: parseFloat(getComputedStyle(el).fontSize) }))
      .filter((x) => x.size < 16),
  );
  expect(small, `inputs under 16 px on ${what}`).toEqual([]);
}

/** Cells of the first sheet of a spreadsheet file LibreOffice wrote as flat ODS: type and value. */
function fodsCells(fods: string): { type: string; value: string; text: string }[][] {
  const rows: { type: string; value: string; text: string }[][] = [];
  for (const row of fods.match(/<table:table-row[\s\S]*?<\/table:table-row>/g) ?? []) {
    const cells: { type: string; value: string; text: string }[] = [];
    for (const c of row.match(/<table:table-cell[^>]*?(?:\/>|>[\s\S]*?<\/table:table-cell>)/g) ?? []) {
      const type = /office:value-type="([^"]+)"/.exec(c)?.[1] ?? "";
      const value = /office:(?:date-value|value)="([^"]+)"/.exec(c)?.[1] ?? "";
      const text = (/<text:p>([\s\S]*?)<\/text:p>/.exec(c)?.[1] ?? "").replace(/<[^>]+>/g, "");
      cells.push({ type, value, text });
    }
    rows.push(cells);
  }
  return rows;
}

for (const [label, viewport] of [
  ["phone", PHONE],
  ["desktop", DESKTOP],
] as const) {
  test.describe(`merchant pages on a ${label}`, () => {
    test.use({ viewport });
    let m: Merchant;

    test("sign-in and sign-up post their forms: the password never goes into a URL, even without JavaScript", async ({ browser }) => {
      const ctx = await browser.newContext({ javaScriptEnabled: false, viewport, locale: "pt-BR" });
      const page = await ctx.newPage();
      const sent: { method: string; url: string }[] = [];
      page.on("request", (r) => {
        if (r.isNavigationRequest()) sent.push({ method: r.method(), url: r.url() });
      });
      for (const [p, button] of [
        ["/login", "Entrar"],
        ["/signup", "Criar conta"],
      ] as const) {
        await page.goto(p);
        await expect(page.locator("form")).toHaveAttribute("method", "post");
        await shot(page, `nojs${p.replace("/", "-")}-${label}`);
        if (p === "/signup") {
          await page.getByLabel("Nome da empresa").fill("Loja Sem JS");
          await page.getByLabel("CPF ou CNPJ").fill("11144477735");
          await page.getByLabel("Cidade", { exact: true }).fill("Curitiba");
          await page.getByLabel("E-mail de acesso").fill("semjs@example.com");
          await page.getByLabel("Confirme a senha").fill("segredo-muito-secreto");
        } else {
          await page.getByLabel("E-mail").fill("semjs@example.com");
        }
        await page.getByLabel("Senha", { exact: true }).fill("segredo-muito-secreto");
        await page.getByRole("button", { name: button }).click();
        await page.waitForLoadState("load");
      }
      const submits = sent.filter((r) => r.method === "POST");
      expect(submits.map((r) => new URL(r.url).pathname)).toEqual(["/login", "/signup"]);
      for (const r of sent) expect(r.url).not.toContain("segredo");
      expect(page.url()).not.toContain("segredo");
      await ctx.close();
    });

    test("Portuguese everywhere: refusal and cash-out failure reasons, Expirado, no failing simulation, no fee on a refusal, pt-BR 404", async ({
      page,
      request,
    }) => {
      test.setTimeout(150_000);
      m = await signUp(page, `Loja UX ${label}`);
      await page.getByLabel("Guardei minha chave secreta em um lugar seguro.").check();
      await page.getByRole("button", { name: "Ir para o painel" }).click();

      // A refused card charge: the reason in words, no fee, no net amount.
      const declined = await tokenizeCard(request, m, "4000000000000002");
      const refused = await createCharge(request, m, { paymentMethod: "credit_card", amount: 12_300, ip: "203.0.113.10", card: { hash: declined } });
      expect(refused.status).toBe("refused");
      await page.goto(`/dashboard/transactions/${refused.id}`);
      await expect(page.getByTestId("refusal-reason")).toHaveText("O banco emissor recusou o cartão.");
      await expect(page.getByTestId("tx-fee")).toContainText("sem tarifa");
      await expect(page.getByTestId("tx-fee")).not.toContainText("líquido");
      // The code stays in the webhook body (raw JSON); the page's own words are Portuguese.
      await expect(page.locator("dd").filter({ hasText: "card_declined" })).toHaveCount(0);
      await expectAccessible(page, "refused transaction");
      await shot(page, `refused-${label}`);

      // An expired PIX: "Expirado" in the list and on its page, and no simulated payment offered.
      const pix = await createCharge(request, m, { paymentMethod: "pix", amount: 4_500 });
      const expiredOk = await expireTransaction(pix.secureId);
      if (expiredOk) {
        await page.goto("/dashboard/transactions");
        await expect(page.locator(`tr[data-transaction-id="${pix.id}"]`)).toContainText("Expirado");
        await page.goto(`/dashboard/transactions/${pix.id}`);
        await expect(page.getByRole("heading", { level: 1 })).toContainText("Expirado");
        await expect(page.getByRole("button", { name: "Simular pagamento" })).toHaveCount(0);
        await shot(page, `expired-pix-${label}`);
      }

      // A paid card gives balance; a cash-out to the sandbox's failing key fails with a reason in words.
      const good = await tokenizeCard(request, m);
      await createCharge(request, m, { paymentMethod: "credit_card", amount: 20_000, ip: "203.0.113.10", card: { hash: good } });
      const res = await request.post("/api/v1/cashOut/request", {
        headers: { authorization: basicAuth(m), "idempotency-key": `ux-${label}-${Date.now()}` },
        data: { amount: 1_000, pixKey: "fail@arara.dev" },
      });
      expect(res.status(), await res.text()).toBe(201);
      const cashOut = (await res.json()).data as { id: number };
      await expect(async () => {
        await page.goto(`/dashboard/cash-out/${cashOut.id}`);
        await expect(page.getByTestId("cash-out-fail-reason")).toHaveText("A instituição de destino recusou a transferência.", { timeout: 1_000 });
      }).toPass({ timeout: 20_000 });
      // Not in what the merchant reads (the webhook bodies the page lists, folded, are the API's JSON, in English by contract).
      await expect(page.getByText("rejected the transfer").filter({ visible: true })).toHaveCount(0);
      await shot(page, `cash-out-failed-${label}`);

      // An address no dashboard page answers: the dashboard's own Portuguese 404.
      await page.goto("/dashboard/nao-existe");
      await expect(page.getByRole("heading", { name: "Não encontrado" })).toBeVisible();
      await expect(page.getByText("This page could not be found")).toHaveCount(0);
      await expectAccessible(page, "dashboard 404");
      await shot(page, `dashboard-404-${label}`);
    });

    test("phone ergonomics: 16 px inputs, the cash-out form above the history, whole rows tappable", async ({ page }) => {
      await page.goto("/login");
      await expectNoZoomInputs(page, "sign-in");
      await page.getByLabel("E-mail").fill(m.email);
      await page.getByLabel("Senha", { exact: true }).fill(m.password);
      await page.getByRole("button", { name: "Entrar" }).click();
      await expect(page).toHaveURL(/\/dashboard$/);

      await page.goto("/dashboard/cash-out");
      await expectNoZoomInputs(page, "cash-out");
      const form = await page.getByRole("heading", { name: "Novo saque PIX" }).boundingBox();
      const history = await page.getByRole("heading", { name: "Histórico" }).boundingBox();
      if (label === "phone") expect(form!.y).toBeLessThan(history!.y);
      else expect(form!.x).toBeLessThan(history!.x);
      await expectAccessible(page, "cash-out page");
      await shot(page, `cash-out-${label}`);

      await page.goto("/dashboard/transactions");
      await expectNoZoomInputs(page, "transactions");
      await shot(page, `transactions-${label}`);
      const row = page.getByTestId("transactions-table").locator("tbody tr").first();
      const id = await row.getAttribute("data-transaction-id");
      // A tap on the amount (not on the link's text) opens the transaction.
      // (The row's link covers the row, so Playwright's own click would say "intercepted": that is the point.)
      const cell = (await row.locator("td").last().boundingBox())!;
      await page.mouse.click(cell.x + 8, cell.y + cell.height / 2);
      await expect(page).toHaveURL(new RegExp(`/dashboard/transactions/${id}$`));
    });

    test("the cash-out confirmation names the recipient: the key's holder and institution from the DICT lookup", async ({ page }) => {
      await page.goto("/login");
      await page.getByLabel("E-mail").fill(m.email);
      await page.getByLabel("Senha", { exact: true }).fill(m.password);
      await page.getByRole("button", { name: "Entrar" }).click();
      await expect(page).toHaveURL(/\/dashboard$/);
      await page.goto("/dashboard/cash-out");
      await page.getByLabel("Valor (R$)").fill("1,00");
      await page.getByLabel("Chave PIX de destino").fill("111.444.777-35");
      await page.getByRole("button", { name: "Revisar saque" }).click();
      // The sandbox's DICT answers a fixed holder for this test key.
      await expect(page.getByTestId("confirm-holder")).toHaveText("Gabriela Gomes · Cooperativa Sandbox Ipê");
      await expectAccessible(page, "cash-out confirmation");
      await shot(page, `cash-out-confirm-recipient-${label}`);
      await page.getByRole("button", { name: "Voltar" }).click();
      // A key no institution holds is stopped before the confirmation.
      await page.getByLabel("Chave PIX de destino").fill("fa11ed00-0000-4000-8000-000000000000");
      await page.getByRole("button", { name: "Revisar saque" }).click();
      await expect(page.getByText("não está cadastrada em nenhuma instituição")).toBeVisible();
    });

    test("the statement CSV opens in a pt-BR spreadsheet (LibreOffice) with dates and numbers as such", async ({ page }) => {
      test.setTimeout(120_000);
      await page.goto("/login");
      await page.getByLabel("E-mail").fill(m.email);
      await page.getByLabel("Senha", { exact: true }).fill(m.password);
      await page.getByRole("button", { name: "Entrar" }).click();
      await expect(page).toHaveURL(/\/dashboard$/);
      await page.goto("/dashboard/statement");
      const [download] = await Promise.all([page.waitForEvent("download"), page.getByTestId("statement-export").click()]);
      const dir = mkdtempSync(path.join(tmpdir(), "arara-csv-"));
      const csvPath = path.join(dir, "extrato.csv");
      copyFileSync((await download.path())!, csvPath);
      const firstData = readFileSync(csvPath, "utf8").replace(/^\uFEFF/, "").split("\r\n")[1].split(";")[0];
      expect(firstData).toMatch(/^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}:\d{2}$/);
      // 59 = ";", 34 = '"', 76 = UTF-8, 1046 = pt-BR: how a Brazilian's LibreOffice opens it.
      execFileSync(
        "soffice",
        [`-env:UserInstallation=file://${dir}/profile`, "--headless", "--infilter=CSV:59,34,76,1,,1046", "--convert-to", "fods", "--outdir", dir, csvPath],
        { stdio: "ignore", timeout: 90_000 },
      );
      const rows = fodsCells(readFileSync(path.join(dir, "extrato.fods"), "utf8")).filter((r) => r.some((c) => c.text));
      expect(rows[0][0].text).toBe("data");
      expect(rows.length).toBeGreaterThan(2);
      for (const r of rows.slice(1)) {
        expect(r[0].type, `date cell ${r[0].text}`).toBe("date");
        expect(r[4].type, `amount cell ${r[4].text}`).toBe("float");
        expect(r[6].type).toBe("float");
      }
      const [d, mo, y] = firstData.slice(0, 10).split("/");
      expect(rows[1][0].value.slice(0, 10)).toBe(`${y}-${mo}-${d}`);
    });

    test("/docs declares English and passes axe (contrast included)", async ({ page }) => {
      test.setTimeout(240_000);
      await page.goto("/docs");
      await expect(page.locator("html")).toHaveAttribute("lang", "en");
      await expectAccessible(page, "API reference");
      await page.goto("/dashboard/nao-existe").catch(() => {});
      await page.goto("/login");
      await expect(page.locator("html")).toHaveAttribute("lang", "pt-BR");
    });
  });
}
