// One scenario of the benchmark alone, against the existing build (.next-bench; `npm run bench`
// builds it), printing its figures as JSON; tests/bench/REPORT.md is not touched.
//
//   node scripts/bench/one.mjs dispatch|latency|memory [pglite|postgres]
//
//   dispatch   events queued with the dispatcher off, then drained by one worker (events/s, duplicates, order)
//   latency    status change → delivery, dispatcher in the app (and, on PostgreSQL, in a worker)
//   memory     RSS of the app at first boot (creates the database), idle after a restart, and peak under
//              create-PIX and list load (BENCH_MEMORY_FULL=1: run.mjs's whole sequence of scenarios)
//
// Environment: BENCH_PORT (first of 6 ports, default 3770), BENCH_EVENTS, BENCH_SECONDS,
// BENCH_CONNECTIONS, BENCH_DATABASE_URL as in run.mjs.
import { spawnSync } from "node:child_process";
import os from "node:os";
import path from "node:path";
import { AUTH, DEMO, card, customer, log, pixBody } from "./fixtures.mjs";
import { ROOT, api, cannon, createDatabase, rssMb, sampleRss, sleep, startApp, startReceiver } from "./lib.mjs";
import { deliveryLatency, dispatchThroughput } from "./webhooks.mjs";

const [scenario = "dispatch", kind = "postgres"] = process.argv.slice(2);
const base = Number(process.env.BENCH_PORT ?? 3770);
const events = Number(process.env.BENCH_EVENTS ?? 3000);
const seconds = Number(process.env.BENCH_SECONDS ?? 20);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 32);
const pgBase = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const load = () => os.loadavg().map((l) => l.toFixed(2)).join(" / ");

/**
 * First boot (the app creates the database), then a restart driven by create PIX and list; with
 * BENCH_MEMORY_FULL=1, by run.mjs's whole sequence instead (bare insert, create PIX, card pairs, read,
 * list, cash-out, each after a warm-up), with the peak after each scenario.
 */
async function memory(db) {
  const first = await startApp(db, base, {});
  const firstBootMb = Math.round(rssMb(first.pid));
  await sleep(2000);
  const firstBootSettledMb = Math.round(rssMb(first.pid));
  await first.stop();
  const full = process.env.BENCH_MEMORY_FULL === "1";
  const app = await startApp(db, base, full ? { BENCH_BASELINE: "1", BENCH_BUILD: "1" } : {});
  try {
    const idleMb = Math.round(rssMb(app.pid));
    const steps = full ? await fullSequence(app.url) : [
      ["create PIX", { url: `${app.url}/api/v1/transactions`, method: "POST", headers: { "content-type": "application/json", authorization: AUTH }, body: JSON.stringify(pixBody()) }],
      ["list (20)", { url: `${app.url}/api/v1/transactions?limit=20`, method: "GET", headers: { authorization: AUTH } }],
    ];
    const rss = sampleRss(app.pid);
    let peak = 0;
    const peakTimer = setInterval(() => (peak = Math.max(peak, rssMb(app.pid))), 500);
    const runs = [];
    for (const [name, o] of steps) {
      if (full) await cannon("warmup", { ...o, connections: 8, amount: 200, maxSeconds: 10 });
      const r = await cannon(name, { ...o, connections, amount: 100_000, maxSeconds: seconds });
      runs.push(`${name} ${r.rps.toFixed(0)} req/s, ${r.errors + r.non2xx} errors, RSS now ${Math.round(rssMb(app.pid))} MB, peak so far ${Math.round(peak)} MB`);
    }
    clearInterval(peakTimer);
    const peakMb = Math.round(rss.stop().peak);
    return { firstBootMb, firstBootSettledMb, idleMb, peakUnderLoadMb: peakMb, afterLoadMb: Math.round(rssMb(app.pid)), runs };
  } finally {
    await app.stop();
  }
}

/** run.mjs's scenarios, in its order, with its fixtures (funds for cash-outs, ids to read). */
async function fullSequence(base) {
  const big = await api(base, "POST", "/api/v1/transactions", { ...pixBody(), amount: 100_000_000, items: [{ title: "Funding", unitPrice: 100_000_000, quantity: 1, tangible: false }] }, AUTH);
  await api(base, "PUT", `/api/v1/transactions/${big.data.id}/test`, { status: "paid" }, AUTH);
  const ids = [];
  for (let i = 0; i < 50; i++) ids.push((await api(base, "POST", "/api/v1/transactions", pixBody(), AUTH)).data.id);
  const json = { "content-type": "application/json" };
  const cardBody = (token) => JSON.stringify({ paymentMethod: "credit_card", amount: 1000, customer, items: [{ title: "Bench", unitPrice: 1000, quantity: 1, tangible: false }], ip: "203.0.113.1", card: { hash: token } });
  return [
    ["bare route handler (1 insert)", { url: `${base}/api/bench-baseline`, method: "POST", headers: json, body: JSON.stringify(pixBody()) }],
    ["create PIX", { url: `${base}/api/v1/transactions`, method: "POST", headers: { ...json, authorization: AUTH }, body: JSON.stringify(pixBody()) }],
    ["create card (pairs)", { url: base, requests: [
      { method: "POST", path: `/api/v1/card-token?publicKey=${DEMO.publicKey}`, headers: json, body: JSON.stringify(card), onResponse: (status, body, context) => { context.token = body; } },
      { method: "POST", path: "/api/v1/transactions", headers: { ...json, authorization: AUTH }, setupRequest: (req, context) => ({ ...req, body: cardBody(context.token) }) },
    ] }],
    ["read", { url: base, requests: [{ method: "GET", headers: { authorization: AUTH }, setupRequest: (req) => ({ ...req, path: `/api/v1/transactions/${ids[Math.floor(Math.random() * ids.length)]}` }) }] }],
    ["list (20)", { url: `${base}/api/v1/transactions?limit=20`, method: "GET", headers: { authorization: AUTH } }],
    ["cash-out", { url: `${base}/api/v1/cashOut/request`, method: "POST", headers: { ...json, authorization: AUTH }, body: JSON.stringify({ amount: 1, pixKey: "bench@example.com" }) }],
  ];
}

async function main() {
  const loadStart = load();
  const db = await createDatabase(kind, pgBase);
  const receiver = await startReceiver(base + 5);
  let result;
  try {
    if (scenario === "dispatch") result = await dispatchThroughput(db, receiver, { port: base + 1, events });
    else if (scenario === "latency") {
      result = [await deliveryLatency(db, receiver, { where: "app", port: base + 2, samples: 40 })];
      if (kind === "postgres") result.push(await deliveryLatency(db, receiver, { where: "worker", port: base + 2, samples: 40 }));
    } else if (scenario === "memory") result = await memory(db);
    else throw new Error(`unknown scenario ${scenario}: dispatch, latency or memory`);
    // The ledger after what the scenario did (no app runs on the database now).
    const env = { ...process.env, KEY_ENCRYPTION_SECRET: "bench-key-encryption-secret-0123456789abcdef", ...db.env };
    if (!db.env.DATABASE_URL) delete env.DATABASE_URL;
    const check = spawnSync(path.join(ROOT, "node_modules/.bin/tsx"), ["scripts/ledger-check.ts"], { cwd: ROOT, encoding: "utf8", env });
    const ledgerCheck = check.status === 0 ? "ok" : `FAILED ${`${check.stdout}${check.stderr}`.trim().split("\n").slice(-2).join(" ")}`;
    result = Array.isArray(result) ? { runs: result, ledgerCheck } : { ...result, ledgerCheck };
  } finally {
    await receiver.close();
    await db.drop();
  }
  const out = { scenario, kind, date: new Date().toISOString(), load: { start: loadStart, end: load() }, result };
  log(JSON.stringify(out));
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
