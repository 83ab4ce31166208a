// Where the time goes on the phone profile (same throttling as phone.mjs): every request with its
// start, response and end times and bytes on the wire (CDP Network), the paints, and when React has
// hydrated the copy button (a __reactProps key on it). Usage: node scripts/bench/phone-trace.mjs URL
import { chromium } from "playwright-core";
import { phonePage } from "./phone.mjs";

const url = process.argv[2];
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH || "/usr/bin/chromium", args: ["--no-sandbox"] });
const { page, cdp } = await phonePage(browser);
const reqs = new Map();
let base = null;
cdp.on("Network.requestWillBeSent", (e) => {
  base ??= e.timestamp;
  reqs.set(e.requestId, { url: e.request.url.replace(/^https?:\/\/[^/]+/, ""), start: e.timestamp, prio: e.request.initialPriority });
});
cdp.on("Network.responseReceived", (e) => { const r = reqs.get(e.requestId); if (r) r.resp = e.timestamp; });
cdp.on("Network.loadingFinished", (e) => { const r = reqs.get(e.requestId); if (r) { r.end = e.timestamp; r.bytes = e.encodedDataLength; } });
const t0 = Date.now();
await page.goto(url, { waitUntil: "commit" });
const marks = {};
const poll = async () => {
  while (Date.now() - t0 < 15000) {
    const s = await page.evaluate(() => {
      const b = [...document.querySelectorAll("button")].find((x) => /copiar/i.test(x.textContent));
      return { code: !!document.querySelector("[data-testid=pix-code]"), button: !!b, hydrated: !!b && Object.keys(b).some((k) => k.startsWith("__reactProps")), pre: !!b && b.dataset.copyReady === "1" };
    }).catch(() => ({}));
    for (const k of Object.keys(s)) if (s[k] && !marks[k]) marks[k] = Date.now() - t0;
    if (s.hydrated) break;
    await new Promise((r) => setTimeout(r, 20));
  }
};
await poll();
await page.waitForLoadState("load");
await page.waitForTimeout(500);
const paints = await page.evaluate(() => performance.getEntriesByType("paint").map((p) => `${p.name}=${Math.round(p.startTime)}`).join(" "));
const nav = await page.evaluate(() => { const n = performance.getEntriesByType("navigation")[0]; return { ttfb: Math.round(n.responseStart), html: Math.round(n.responseEnd), dcl: Math.round(n.domContentLoadedEventEnd), load: Math.round(n.loadEventEnd) }; });
console.log("marks (wall ms since goto):", marks);
console.log("nav:", nav, paints);
const ms = (t) => (t == null ? "-" : String(Math.round((t - base) * 1000)).padStart(5));
let total = 0;
for (const r of [...reqs.values()].sort((a, b) => a.start - b.start)) {
  total += r.bytes ?? 0;
  console.log(`${ms(r.start)} ${ms(r.resp)} ${ms(r.end)} ${String(r.bytes ?? "-").padStart(7)} ${r.prio?.padEnd(8)} ${r.url.slice(0, 90)}`);
}
console.log("total bytes", total);
await browser.close();
