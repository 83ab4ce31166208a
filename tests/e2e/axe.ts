/** The accessibility check shared by the browser tests (checkout and dashboard helpers re-export it). */
import AxeBuilder from "@axe-core/playwright";
import { expect, type Page } from "@playwright/test";

/** No serious or critical axe violation on the page as it is now. */
export async function expectAccessible(page: Page, state: string) {
  // On a client navigation or refresh, Next removes the old <title> in the commit that shows the new
  // content and inserts the new one a few milliseconds later (vercel/next.js#96797): wait for it, so
  // axe sees the settled page. A page that never gets its title still fails here.
  await expect(page).toHaveTitle(/\S/);
  const result = await new AxeBuilder({ page }).analyze();
  const bad = result.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(
    bad.map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`),
    `accessibility of "${state}"`,
  ).toEqual([]);
}
