/**
 * A dashboard page that takes a while to load says so at once (components/dashboard/NavigationPending.tsx):
 * "Carregando…" in a role=status, aria-busy region over the page (nothing moves), the old page and the
 * menu still there; then the page. And a page not found still answers 404 (no Suspense boundary above
 * the pages, which would stream them with a 200).
 */
import { expect, test } from "@playwright/test";
import { DESKTOP, PHONE_390, shotFromTop, signUp } from "./dashboard-helpers";

test.use({ locale: "pt-BR", timezoneId: "America/Sao_Paulo" });
test.setTimeout(90_000);

test("a slow dashboard navigation shows an accessible loading state, then the page", async ({ page }) => {
  await page.setViewportSize(DESKTOP);
  await signUp(page, "Loja Carregando");
  await page.goto("/dashboard/statement");
  await expect(page.getByRole("heading", { level: 1, name: "Extrato" })).toBeVisible();

  for (const [label, viewport] of [
    ["desktop", DESKTOP],
    ["phone", PHONE_390],
  ] as const) {
    await page.setViewportSize(viewport);
    await page.goto("/dashboard/statement");
    // The page's own data (its RSC request, not the prefetch) answers 2.5 s late, as on a slow connection.
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    await page.route("**/dashboard/transactions**", async (route) => {
      const h = route.request().headers();
      if (h["rsc"] && !h["next-router-prefetch"]) await Promise.race([held, new Promise((r) => setTimeout(r, 2_500))]);
      await route.continue();
    });
    const menu = page.getByRole("button", { name: "Abrir menu" });
    if (await menu.isVisible()) await menu.click();
    // The links' prefetch (not held) has brought the loading state, as a merchant's browser has it by the time of a click.
    await page.waitForLoadState("networkidle");
    await page.getByRole("link", { name: "Transações" }).first().click();
    const loading = page.getByRole("status").filter({ hasText: "Carregando…" });
    await expect(loading).toBeVisible({ timeout: 2_000 });
    await expect(loading).toHaveAttribute("aria-busy", "true");
    await shotFromTop(page, `dashboard-loading-${label}`);
    release();
    await expect(page.getByRole("heading", { level: 1, name: "Transações" })).toBeVisible();
    await expect(loading).toHaveCount(0);
    await page.unroute("**/dashboard/transactions**");
  }
  expect((await page.goto("/dashboard/transactions/999999999"))?.status()).toBe(404);
  expect((await page.goto("/dashboard/nada-aqui"))?.status()).toBe(404);
});
