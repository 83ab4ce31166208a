// Ratios to the bare route handler that survive a machine whose load changes from minute to minute:
// the scenarios run in short bursts, interleaved (bare, create PIX, list, cash-out, card, read, bare, ...),
// for several rounds, and each ratio is taken against the bare bursts of the same rounds. A list burst
// waits for the table's statistics first (lib.mjs, statisticsSettled).
// `BENCH_DBS=postgres NEXT_DIST_DIR=.next-bench node scripts/bench/interleaved.mjs` after a bench build
// (the build must have BENCH_BASELINE's route); BENCH_SCENARIOS=card,read runs only those (and the bare
// route). Prints a Markdown table.
import os from "node:os";
import { api, cannon, createDatabase, sleep, startApp, statisticsSettled } from "./lib.mjs";
import { AUTH, DEMO, card, customer, pixBody } from "./fixtures.mjs";

const kind = (process.env.BENCH_DBS ?? "postgres").split(",")[0];
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const seconds = Number(process.env.BENCH_SECONDS ?? 6);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 32);

const pix = (amount = 1000) => ({ ...pixBody(), amount, items: [{ title: "Bench", unitPrice: amount, quantity: 1, tangible: false }] });

const db = await createDatabase(kind, process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres");
const app = await startApp(db, 3763, { BENCH_BASELINE: "1" });
const load = () => os.loadavg().map((x) => x.toFixed(2)).join(" / ");
const loadStart = load();
try {
  const big = await api(app.url, "POST", "/api/v1/transactions", pix(100_000_000), AUTH);
  await api(app.url, "PUT", `/api/v1/transactions/${big.data.id}/test`, { status: "paid" }, AUTH);
  const ids = [];
  for (let i = 0; i < 50; i++) ids.push((await api(app.url, "POST", "/api/v1/transactions", pix(), AUTH)).data.id);
  const json = { "content-type": "application/json" };
  const scenarios = {
    bare: { url: `${app.url}/api/bench-baseline`, method: "POST", headers: json, body: JSON.stringify(pix()) },
    "create PIX": { url: `${app.url}/api/v1/transactions`, method: "POST", headers: { ...json, authorization: AUTH }, body: JSON.stringify(pix()) },
    "list (20)": { url: `${app.url}/api/v1/transactions?limit=20`, method: "GET", headers: { authorization: AUTH } },
    "cash-out": { url: `${app.url}/api/v1/cashOut/request`, method: "POST", headers: { ...json, authorization: AUTH }, body: JSON.stringify({ amount: 1, pixKey: "bench@example.com" }) },
    "card (tokenize + create)": {
      url: app.url,
      requests: [
        { method: "POST", path: `/api/v1/card-token?publicKey=${DEMO.publicKey}`, headers: json, body: JSON.stringify(card), onResponse: (status, body, context) => (context.token = body) },
        {
          method: "POST",
          path: "/api/v1/transactions",
          headers: { ...json, authorization: AUTH },
          setupRequest: (req, context) => ({
            ...req,
            body: JSON.stringify({ paymentMethod: "credit_card", amount: 1000, customer, items: [{ title: "Bench", unitPrice: 1000, quantity: 1, tangible: false }], ip: "203.0.113.1", card: { hash: context.token } }),
          }),
        },
      ],
    },
    read: {
      url: app.url,
      requests: [{ method: "GET", headers: { authorization: AUTH }, setupRequest: (req) => ({ ...req, path: `/api/v1/transactions/${ids[Math.floor(Math.random() * ids.length)]}` }) }],
    },
  };
  // BENCH_SCENARIOS: a comma-separated subset by name prefix ("bare" always runs: the ratios need it).
  const only = process.env.BENCH_SCENARIOS?.split(",").map((s) => s.trim());
  if (only) for (const k of Object.keys(scenarios)) if (k !== "bare" && !only.some((s) => k.startsWith(s))) delete scenarios[k];
  for (const o of Object.values(scenarios)) await cannon("warmup", { ...o, connections: 8, amount: 200, maxSeconds: 5 });
  const sums = Object.fromEntries(Object.keys(scenarios).map((k) => [k, { requests: 0, seconds: 0, p99: [] }]));
  const waits = [];
  for (let r = 0; r < rounds; r++) {
    for (const [name, o] of Object.entries(scenarios)) {
      // A list page is planned from the table's statistics, which the create bursts just made stale.
      if (name.startsWith("list")) waits.push(await statisticsSettled(db, app));
      const res = await cannon(name, { ...o, connections, amount: 100_000, maxSeconds: seconds });
      sums[name].requests += res.requests;
      sums[name].seconds += res.seconds;
      sums[name].p99.push(res.p99);
      await sleep(200);
    }
  }
  const rps = (k) => sums[k].requests / sums[k].seconds;
  console.log(`Interleaved, ${kind}: ${rounds} rounds of ${seconds} s bursts at ${connections} connections; load average ${loadStart} at start, ${load()} at end.\n`);
  console.log("| Scenario | req/s | × bare route | p99 ms per round |\n|---|---:|---:|---|");
  for (const k of Object.keys(scenarios)) console.log(`| ${k} | ${rps(k).toFixed(0)} | ${(rps(k) / rps("bare")).toFixed(2)} | ${sums[k].p99.join(", ")} |`);
  console.log(`\nBefore each list burst, waited for the transactions table's statistics: ${waits.map((w) => `${w.waitedS} s${w.settled ? "" : " (not current)"}`).join(", ")}.`);
} finally {
  await app.stop();
  await db.drop();
}
