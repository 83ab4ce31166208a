/**
 * The home page (what a self-hoster opens first) and the API reference on a phone: sign in, sign up,
 * the reference, and this instance's health (status, version from package.json, database kind), in
 * Portuguese, without axe violations, on a 390 px phone and a 1440 px desktop; /docs never scrolls
 * sideways at 390 px.
 */
import { mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1440, height: 900 };
const VERSION = JSON.parse(readFileSync(path.join(__dirname, "../../package.json"), "utf8")).version as string;

/**
 * The page as a person scrolls it, from the top. `maxHeight`: only that much of a very tall page (the
 * whole API reference is some 200,000 px at 390 px wide, past what Chromium can capture in one image).
 */
async function screenshot(page: Page, name: string, maxHeight?: number) {
  const dir = process.env.HOME_SCREENSHOTS || "test-results/home";
  mkdirSync(dir, { recursive: true });
  const width = page.viewportSize()!.width;
  const clip = maxHeight ? { x: 0, y: 0, width, height: Math.min(maxHeight, await page.evaluate(() => document.documentElement.scrollHeight)) } : undefined;
  await page.screenshot({ path: `${dir}/${name}.png`, fullPage: true, animations: "disabled", ...(clip ? { clip } : {}) });
}

async function expectNoAxeViolations(page: Page, what: string) {
  const result = await new AxeBuilder({ page }).analyze();
  expect(
    result.violations.map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`),
    `axe on ${what}`,
  ).toEqual([]);
}

async function expectNoSidewaysScroll(page: Page) {
  const [scrollWidth, clientWidth] = await page.evaluate(() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]);
  expect(scrollWidth, "page wider than the screen").toBeLessThanOrEqual(clientWidth);
}

for (const [label, viewport] of [
  ["phone", PHONE],
  ["desktop", DESKTOP],
] as const) {
  test(`home on ${label}: sign in, sign up, API reference and the instance's health, in Portuguese, axe clean`, async ({ page, request }) => {
    await page.setViewportSize(viewport);
    const errors: string[] = [];
    page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
    await page.goto("/");
    await expect(page.locator("html")).toHaveAttribute("lang", "pt-BR");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Receba por PIX, boleto e cartão");
    await expect(page.getByRole("link", { name: "Entrar no painel" })).toHaveAttribute("href", "/login");
    await expect(page.getByRole("link", { name: "Criar conta" })).toHaveAttribute("href", "/signup");
    await expect(page.getByRole("link", { name: /Referência da API/ })).toHaveAttribute("href", "/docs");

    // The instance block says what /api/v1/health says, and the version in package.json.
    const health = (await (await request.get("/api/v1/health")).json()) as { status: string; database: string };
    expect(health.status).toBe("ok");
    await expect(page.getByTestId("instance-status")).toHaveText("Operando normalmente");
    await expect(page.getByTestId("instance-version")).toHaveText(VERSION);
    await expect(page.getByTestId("instance-database")).toHaveText(health.database === "postgres" ? "PostgreSQL" : "PGlite (PostgreSQL embutido)");

    await expectNoSidewaysScroll(page);
    await expectNoAxeViolations(page, `home (${label})`);
    await screenshot(page, `home-${label}`);
    expect(errors).toEqual([]);

    // The links lead where they say.
    await page.getByRole("link", { name: "Criar conta" }).click();
    await expect(page).toHaveURL(/\/signup$/);
    await page.goto("/");
    await page.getByRole("link", { name: "Entrar no painel" }).click();
    await expect(page).toHaveURL(/\/login$/);
    await page.goto("/");
    await page.getByRole("link", { name: /Referência da API/ }).click();
    await expect(page).toHaveURL(/\/docs$/);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  });
}

test("API reference at 390 px: nothing wider than the screen", async ({ page }) => {
  // The whole reference is a very tall page: its full-page screenshot alone took over a minute on a
  // loaded 2-core machine.
  test.setTimeout(180_000);
  await page.setViewportSize(PHONE);
  await page.goto("/docs");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expectNoSidewaysScroll(page);
  await screenshot(page, "docs-phone", 12_000);
});
