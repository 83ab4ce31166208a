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

/**
 * One arrival at the checkout: the PIX code visible, the copy button visible, and the button usable
 * (a click is handled: its label changes to "copied", or the "could not copy" message shows).
 */
async function checkoutArrival(page, t0) {
  const code = page.getByTestId("pix-code");
  await code.waitFor({ state: "visible", timeout: 30_000 });
  const codeMs = Date.now() - t0;
  const button = page.locator("button", { hasText: /copiar/i }).first();
  return { codeMs, ...(await untilClickHandled(page, button, t0, async () => (await page.getByText(/não foi possível copiar/i).count()) > 0)) };
}

/** One arrival at the App Router floor (/bench-floor): its one button visible, and usable (a click counts). */
async function floorArrival(page, t0) {
  return untilClickHandled(page, page.locator("button").first(), t0, async () => false);
}

/** Waits for `button`, then clicks it until its text changes (or `alsoDone` says so): the times of both. */
async function untilClickHandled(page, button, t0, alsoDone) {
  await button.waitFor({ state: "visible", timeout: 30_000 });
  const buttonMs = Date.now() - t0;
  const handle = await button.elementHandle();
  const label = (await handle.textContent()) ?? "";
  let usableMs = NaN;
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    await handle.click({ timeout: 5_000 }).catch(() => {});
    const now = (await handle.textContent()) ?? "";
    if (now !== label || (await alsoDone())) {
      usableMs = Date.now() - t0;
      break;
    }
    await page.waitForTimeout(50);
  }
  return { buttonMs, usableMs };
}

const median = (runs, k) => [...runs.map((r) => r[k])].sort((a, b) => a - b)[Math.floor(runs.length / 2)];

/**
 * The checkout's arrivals (`runs` of them, each the first navigation of a fresh context) and, with
 * `floorUrl`, as many arrivals at the App Router floor page of the same build, alternating with them in
 * the same browser: what any page of this framework takes on this machine and browser, next to what
 * the checkout takes.
 */
export async function phoneProfile(url, runs = 3, { floorUrl } = {}) {
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH || "/usr/bin/chromium", args: ["--no-sandbox"] });
  const out = [];
  const floor = [];
  const arrive = async (target, measure, into) => {
    const { context, page } = await phonePage(browser);
    await context.grantPermissions(["clipboard-read", "clipboard-write"]).catch(() => {});
    const t0 = Date.now();
    await page.goto(target, { waitUntil: "commit" });
    into.push(await measure(page, t0));
    await context.close();
  };
  try {
    for (let i = 0; i < runs; i++) {
      await arrive(url, checkoutArrival, out);
      if (floorUrl) await arrive(floorUrl, floorArrival, floor);
    }
  } finally {
    await browser.close();
  }
  return {
    runs: out,
    codeMs: median(out, "codeMs"),
    buttonMs: median(out, "buttonMs"),
    usableMs: median(out, "usableMs"),
    floor: floor.length ? { runs: floor, buttonMs: median(floor, "buttonMs"), usableMs: median(floor, "usableMs") } : null,
  };
}
