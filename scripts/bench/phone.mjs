// The checkout on a phone profile: Chromium through CDP with 4× CPU throttling and Lighthouse's
// "slow 4G" network (150 ms RTT, 1.6 Mbit/s down, 750 kbit/s up), a fresh browser context (empty
// cache) per run. Times, from the start of the navigation: the PIX code visible, the copy button
// visible, and the copy button usable (a click changes its label: the page is hydrated).
import { chromium } from "playwright-core";

const SLOW_4G = { offline: false, latency: 150, downloadThroughput: (1.6 * 1024 * 1024) / 8, uploadThroughput: (750 * 1024) / 8 };

/** A fresh phone context (empty cache) and page, with the throttling above on; `cdp` is its CDP session. */
export async function phonePage(browser) {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true, locale: "pt-BR" });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.setCacheDisabled", { cacheDisabled: true });
  await cdp.send("Network.emulateNetworkConditions", SLOW_4G);
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });
  return { context, page, cdp };
}

export async function phoneProfile(url, runs = 3) {
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH || "/usr/bin/chromium", args: ["--no-sandbox"] });
  const out = [];
  try {
    for (let i = 0; i < runs; i++) {
      const { context, page } = await phonePage(browser);
      await context.grantPermissions(["clipboard-read", "clipboard-write"]).catch(() => {});
      const t0 = Date.now();
      await page.goto(url, { waitUntil: "commit" });
      const code = page.getByTestId("pix-code");
      await code.waitFor({ state: "visible", timeout: 30_000 });
      const codeMs = Date.now() - t0;
      const button = page.locator("button", { hasText: /copiar/i }).first();
      await button.waitFor({ state: "visible", timeout: 30_000 });
      const buttonMs = Date.now() - t0;
      const handle = await button.elementHandle();
      const label = (await handle.textContent()) ?? "";
      // Usable: a click is handled (the label changes to "copied" or "copy failed").
      let usableMs = NaN;
      const deadline = Date.now() + 30_000;
      while (Date.now() < deadline) {
        await handle.click({ timeout: 5_000 }).catch(() => {});
        const now = (await handle.textContent()) ?? "";
        if (now !== label || (await page.getByText(/não foi possível copiar/i).count()) > 0) {
          usableMs = Date.now() - t0;
          break;
        }
        await page.waitForTimeout(50);
      }
      out.push({ codeMs, buttonMs, usableMs });
      await context.close();
    }
  } finally {
    await browser.close();
  }
  const median = (k) => [...out.map((r) => r[k])].sort((a, b) => a - b)[Math.floor(out.length / 2)];
  return { runs: out, codeMs: median("codeMs"), buttonMs: median("buttonMs"), usableMs: median("usableMs") };
}
