// `npm run bench`: builds production into .next-bench, starts it on 127.0.0.1 and drives it with
// autocannon (bounded count and time) on PGlite and on PostgreSQL; measures the same insert through a
// bare Next.js route handler and a bare Node server as ceilings, webhook dispatch throughput and
// latency, server RSS under load and the checkout page's first-load JS; writes tests/bench/REPORT.md.
//
// Environment:
//   BENCH_QUICK=1            small counts (a smoke run: checks the bench works end to end)
//   BENCH_DBS=pglite,postgres which databases (default both; postgres needs BENCH_DATABASE_URL)
//   BENCH_DATABASE_URL       server for the PostgreSQL run (default postgres://postgres@127.0.0.1:5432/postgres)
//   BENCH_AMOUNT, BENCH_SECONDS, BENCH_CONNECTIONS, BENCH_EVENTS   run sizes
//   BENCH_SKIP_BUILD=1       use the existing .next-bench build (made by a run, or BENCH_BUILD_ONLY=1)
//   BENCH_BUILD_ONLY=1       build .next-bench (with the floor page, /bench-floor) and stop
//   BENCH_PROFILE=1          run the app with --cpu-prof (profiles in tests/bench/results/)
//   BENCH_NOTE="..."         a line about the conditions, copied into the report
//   BENCH_REPORT_FROM=FILE   runs nothing: writes REPORT.md again from a run's saved results
//                            (tests/bench/results/bench-*.json), e.g. after a change to the report's wording
import { spawnSync, execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { ROOT, DIST, api, cannon, cpuMs, createDatabase, sampleRss, sleep, startApp, startBareNode, startReceiver, startWorker, startScript, rssMb, statisticsSettled } from "./lib.mjs";
import { phoneProfile } from "./phone.mjs";
import { AUTH, DEMO, card, customer, log, pixBody } from "./fixtures.mjs";
import { deliveryLatency, dispatchThroughput } from "./webhooks.mjs";

const quick = process.env.BENCH_QUICK === "1";
const cfg = {
  amount: Number(process.env.BENCH_AMOUNT ?? (quick ? 300 : 4000)),
  seconds: Number(process.env.BENCH_SECONDS ?? (quick ? 10 : 25)),
  connections: Number(process.env.BENCH_CONNECTIONS ?? 32),
  events: Number(process.env.BENCH_EVENTS ?? (quick ? 200 : 3000)),
  latencySamples: quick ? 10 : 40,
  dbs: (process.env.BENCH_DBS ?? "pglite,postgres").split(",").map((s) => s.trim()).filter(Boolean),
  pgBase: process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres",
  profile: process.env.BENCH_PROFILE === "1",
};
const RESULTS = path.join(ROOT, "tests/bench/results");
mkdirSync(RESULTS, { recursive: true });
const PORTS = { app: 3760, bareNode: 3769, receiver: 3768, second: 3764 };

// The App Router's floor, measured in the same build as the checkout: a page with one trivial client
// component. Written into app/ for the bench build only and removed after it (never in a production build).
const FLOOR_DIR = path.join(ROOT, "app/bench-floor");
function writeFloorPage() {
  mkdirSync(FLOOR_DIR, { recursive: true });
  writeFileSync(
    path.join(FLOOR_DIR, "floor.tsx"),
    `"use client";\nimport { useState } from "react";\n\nexport function Floor() {\n  const [n, setN] = useState(0);\n  return <button type="button" onClick={() => setN(n + 1)}>{n}</button>;\n}\n`,
  );
  writeFileSync(path.join(FLOOR_DIR, "page.tsx"), `import { Floor } from "./floor";\n\nexport default function Page() {\n  return <Floor />;\n}\n`);
}


function machine() {
  const cpus = os.cpus();
  let pg = "";
  const pkg = (p) => {
    try {
      return JSON.parse(readFileSync(path.join(ROOT, "node_modules", p, "package.json"), "utf8")).version;
    } catch {
      return "?";
    }
  };
  return {
    cpu: `${cpus.length} × ${cpus[0]?.model ?? "?"}`,
    memoryGb: Math.round(os.totalmem() / 1e9),
    os: `${os.type()} ${os.release()}`,
    node: process.version,
    next: pkg("next"),
    pglite: pkg("@electric-sql/pglite"),
    postgresJs: pkg("postgres"),
    drizzle: pkg("drizzle-orm"),
    autocannon: pkg("autocannon"),
    // The phone profile's figures depend on the browser's scheduling and throttling: say which one.
    chromium: (() => {
      const r = spawnSync(process.env.CHROMIUM_PATH || "/usr/bin/chromium", ["--version"], { encoding: "utf8" });
      return r.status === 0 ? r.stdout.trim() : "?";
    })(),
    pg,
  };
}

function load() {
  const [a, b, c] = os.loadavg();
  return `${a.toFixed(2)} / ${b.toFixed(2)} / ${c.toFixed(2)}`;
}

function otherNodeProcesses() {
  try {
    const out = execFileSync("ps", ["-e", "-o", "comm="], { encoding: "utf8" });
    return out.split("\n").filter((l) => /node|next-server|postgres/.test(l)).length;
  } catch {
    return -1;
  }
}

/** First-load JS of a page: the scripts its HTML loads, read from the build and gzipped. */
async function firstLoadJs(url) {
  const res = await fetch(url);
  // A page missing from the build answers 404 with the framework's not-found page and its scripts.
  if (!res.ok) throw new Error(`${url} answered ${res.status}`);
  const html = await res.text();
  const srcs = new Set();
  // noModule scripts (Next's legacy polyfills) are not loaded by the browsers Next supports.
  for (const m of html.matchAll(/<script[^>]*\ssrc="([^"]+)"[^>]*>/g)) if (!/\snomodule/i.test(m[0])) srcs.add(m[1]);
  for (const m of html.matchAll(/<link[^>]*rel="(?:preload|modulepreload)"[^>]*>/g)) {
    const tag = m[0];
    if (/as="script"/.test(tag) || /modulepreload/.test(tag)) {
      const href = /href="([^"]+)"/.exec(tag);
      if (href) srcs.add(href[1]);
    }
  }
  let raw = 0;
  let gz = 0;
  const files = [];
  for (const src of srcs) {
    const rel = src.replace(/^.*\/_next\//, "").split("?")[0];
    const file = path.join(ROOT, DIST, rel);
    if (!existsSync(file)) continue;
    const buf = readFileSync(file);
    raw += buf.length;
    const g = gzipSync(buf).length;
    gz += g;
    files.push({ file: rel, kb: +(g / 1024).toFixed(1) });
  }
  return { scripts: files.length, rawKb: +(raw / 1024).toFixed(1), gzipKb: +(gz / 1024).toFixed(1), htmlKb: +(html.length / 1024).toFixed(1), files };
}

async function apiScenarios(app, db) {
  const base = app.url;
  const out = [];
  const common = { connections: cfg.connections, amount: cfg.amount, maxSeconds: cfg.seconds };
  const warm = async (o) => cannon("warmup", { ...o, connections: 8, amount: Math.min(200, cfg.amount), maxSeconds: 10 });

  // Funds for cash-outs and ids to read.
  const big = await api(base, "POST", "/api/v1/transactions", { ...pixBody(), amount: 100_000_000, items: [{ title: "Funding", unitPrice: 100_000_000, quantity: 1, tangible: false }] }, AUTH);
  await api(base, "PUT", `/api/v1/transactions/${big.data.id}/test`, { status: "paid" }, AUTH);
  const ids = [];
  for (let i = 0; i < 50; i++) ids.push((await api(base, "POST", "/api/v1/transactions", pixBody(), AUTH)).data.id);

  const bareRoute = { url: `${base}/api/bench-baseline`, method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(pixBody()) };
  const createPix = { url: `${base}/api/v1/transactions`, method: "POST", headers: { "content-type": "application/json", authorization: AUTH }, body: JSON.stringify(pixBody()) };
  const cardPair = {
    url: base,
    requests: [
      {
        method: "POST",
        path: `/api/v1/card-token?publicKey=${DEMO.publicKey}`,
        headers: { "content-type": "application/json" },
        body: JSON.stringify(card),
        onResponse: (status, body, context) => {
          context.token = body;
        },
      },
      {
        method: "POST",
        path: "/api/v1/transactions",
        headers: { "content-type": "application/json", authorization: AUTH },
        setupRequest: (req, context) => ({
          ...req,
          body: JSON.stringify({ paymentMethod: "credit_card", amount: 1000, customer, items: [{ title: "Bench", unitPrice: 1000, quantity: 1, tangible: false }], ip: "203.0.113.1", card: { hash: context.token } }),
        }),
      },
    ],
  };
  const read = {
    url: base,
    requests: [{ method: "GET", headers: { authorization: AUTH }, setupRequest: (req) => ({ ...req, path: `/api/v1/transactions/${ids[Math.floor(Math.random() * ids.length)]}` }) }],
  };
  const list = { url: `${base}/api/v1/transactions?limit=20`, method: "GET", headers: { authorization: AUTH } };
  const cashOut = {
    url: `${base}/api/v1/cashOut/request`,
    method: "POST",
    headers: { "content-type": "application/json", authorization: AUTH },
    body: JSON.stringify({ amount: 1, pixKey: "bench@example.com" }),
  };

  const rss = sampleRss(app.pid);
  const idle = rssMb(app.pid);
  let statistics = null;
  for (const [name, o] of [
    ["bare route handler (1 insert)", bareRoute],
    ["create PIX", createPix],
    ["create card (tokenize + create, pairs)", cardPair],
    ["read transaction", read],
    ["list transactions (20)", list],
    ["cash-out request", cashOut],
  ]) {
    if (o === list) {
      statistics = await statisticsSettled(db, app);
      log(`${db.kind} list: the transactions table's statistics ${statistics.settled ? "current" : "NOT current"} after ${statistics.waitedS} s`);
    }
    await warm(o);
    const seen = app.maintained().length;
    const r = await cannon(name, { ...common, ...o });
    r.maintenance = maintenanceDuring(app.maintained().slice(seen));
    log(`${db.kind} ${name}: ${r.rps.toFixed(0)} req/s p50 ${r.p50} ms p99 ${r.p99} ms errors ${r.errors} non2xx ${r.non2xx}; app RSS now ${rssMb(app.pid).toFixed(0)} MB`);
    out.push(r);
    await sleep(500);
  }
  const mem = rss.stop();
  return { results: out, statistics, rss: { idleMb: +idle.toFixed(0), peakMb: +mem.peak.toFixed(0) } };
}

/**
 * The maintenance pass's steps logged during a scenario ("database maintained" lines: table, action,
 * ms). On the embedded database they run on the app's thread, so every request in flight waited them.
 */
function maintenanceDuring(lines) {
  const steps = lines.flatMap((l) => {
    try {
      return JSON.parse(l).steps ?? [];
    } catch {
      return [];
    }
  });
  return { steps: steps.length, ms: steps.reduce((a, x) => a + (x.ms ?? 0), 0), longest: steps.reduce((a, x) => (x.ms > (a?.ms ?? -1) ? x : a), null) };
}

async function bareNodeScenario(db) {
  const bare = await startBareNode(db, PORTS.bareNode);
  try {
    const o = { url: `${bare.url}/`, method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(pixBody()) };
    await cannon("warmup", { ...o, connections: 8, amount: 200, maxSeconds: 10 });
    const r = await cannon("bare Node http + 1 insert", { ...o, connections: cfg.connections, amount: cfg.amount, maxSeconds: cfg.seconds });
    log(`${db.kind} bare node: ${r.rps.toFixed(0)} req/s p50 ${r.p50} p99 ${r.p99}`);
    return r;
  } finally {
    await bare.stop();
  }
}

/**
 * Scale-out (PostgreSQL): create PIX on one instance, then on two instances at once (each its own
 * autocannon, the same connections each), one worker beside them; and the CPU time per request of
 * the app process (user + system, from /proc), which predicts what a second instance can add when
 * the cores are shared.
 */
async function scaleOut(db) {
  const worker = await startWorker(db, {});
  const a = await startApp(db, PORTS.app + 3, { BACKGROUND_JOBS: "off" });
  const b = await startApp(db, PORTS.second, { BACKGROUND_JOBS: "off" });
  try {
    const opts = (app) => ({ url: `${app.url}/api/v1/transactions`, method: "POST", headers: { "content-type": "application/json", authorization: AUTH }, body: JSON.stringify(pixBody()) });
    for (const app of [a, b]) await cannon("warmup", { ...opts(app), connections: 8, amount: 200, maxSeconds: 10 });
    const cpu0 = cpuMs(a.pid);
    const one = await cannon("one instance", { ...opts(a), connections: cfg.connections, amount: cfg.amount, maxSeconds: cfg.seconds });
    const cpuPerRequest = (cpuMs(a.pid) - cpu0) / one.requests;
    const [ra, rb] = await Promise.all([
      cannon("pair a", { ...opts(a), connections: cfg.connections, amount: cfg.amount, maxSeconds: cfg.seconds }),
      cannon("pair b", { ...opts(b), connections: cfg.connections, amount: cfg.amount, maxSeconds: cfg.seconds }),
    ]);
    const r = { one: one.rps, pair: ra.rps + rb.rps, ratio: (ra.rps + rb.rps) / one.rps, cpuMsPerRequest: +cpuPerRequest.toFixed(2), errors: ra.errors + rb.errors + ra.non2xx + rb.non2xx };
    log(`scale-out: one ${one.rps.toFixed(0)} req/s, pair ${r.pair.toFixed(0)} req/s (${r.ratio.toFixed(2)}×), app CPU ${r.cpuMsPerRequest} ms/request`);
    return r;
  } finally {
    await a.stop();
    await b.stop();
    await worker.stop();
  }
}

function fmt(n, d = 0) {
  return Number.isFinite(n) ? n.toFixed(d) : "–";
}

function report(all) {
  const lines = [];
  const m = all.machine;
  lines.push("# Benchmarks", "");
  lines.push(`Generated by \`npm run bench\` (scripts/bench/run.mjs) on ${all.date}${(all.cfg?.quick ?? quick) ? " — **BENCH_QUICK smoke run: small counts, figures are indicative only**" : ""}.`, "");
  lines.push("## Machine and conditions", "");
  lines.push(`- CPU: ${m.cpu}; memory ${m.memoryGb} GB; ${m.os}`);
  lines.push(`- Node ${m.node}, Next.js ${m.next}, PGlite ${m.pglite}, postgres.js ${m.postgresJs}, drizzle-orm ${m.drizzle}, autocannon ${m.autocannon}`, `- Browser for the phone profile: ${m.chromium}`);
  for (const d of all.dbs) {
    if (d.kind !== "postgres") continue;
    const vacuum = d.autovacuum === "off" ? "autovacuum **off** on this server (the app's maintenance pass does its work: README, Upkeep)" : `autovacuum ${d.autovacuum}`;
    lines.push(`- PostgreSQL: ${d.version.split(",")[0]} (same machine), ${vacuum}`);
  }
  lines.push(`- Load average (1/5/15 min) at start ${all.loadStart}, at end ${all.loadEnd}; node/postgres processes running at start: ${all.processes}`);
  lines.push(`- autocannon runs on the same machine as the server (it competes for the same cores). Each scenario: warm-up of 200 requests, then up to ${(all.cfg ?? cfg).amount} requests or ${(all.cfg ?? cfg).seconds} s at ${(all.cfg ?? cfg).connections} connections.`);
  const script = startScript();
  const started = [...Object.entries(script.env).map(([k, v]) => `${k}=${v}`), "node", ...script.nodeFlags].join(" ");
  lines.push(`- The app runs as in production: \`next start\` of the build as \`npm start\` starts it (\`${started}\`), NODE_ENV=production, LOG_LEVEL=info (one log line per request), background jobs on (dispatcher, sandbox PSP), rate limit raised out of the way.`);
  if (process.env.BENCH_NOTE) lines.push(`- ${process.env.BENCH_NOTE}`);
  lines.push("");
  for (const d of all.dbs) {
    lines.push(`## ${d.kind === "postgres" ? "PostgreSQL" : "PGlite (embedded)"}`, "");
    lines.push("| Scenario | req/s | p50 ms | p99 ms | max ms | errors | non-2xx | requests |", "|---|---:|---:|---:|---:|---:|---:|---:|");
    for (const r of [...d.api.results, d.bareNode]) {
      lines.push(`| ${r.name} | ${fmt(r.rps)} | ${r.p50} | ${r.p99} | ${r.max} | ${r.errors} | ${r.non2xx} | ${r.requests} |`);
    }
    const pg = d.kind === "postgres";
    const pix = d.api.results.find((r) => r.name === "create PIX");
    const route = d.api.results.find((r) => r.name.startsWith("bare route"));
    const cardPair = d.api.results.find((r) => r.name.startsWith("create card"));
    lines.push("");
    lines.push(`Card charges per second (a tokenize and a create per charge): ${fmt(cardPair.rps / 2)}.`, "");
    const maintained = d.api.results.filter((r) => r.maintenance);
    if (!pg && maintained.length) {
      const each = maintained.map((r) => {
        const m = r.maintenance;
        const longest = m.longest ? `, longest ${m.longest.action} ${m.longest.table} ${m.longest.ms} ms` : "";
        return `${r.name} ${m.ms} ms in ${m.steps} steps (${fmt((100 * m.ms) / (r.seconds * 1000), 1)} % of its ${fmt(r.seconds, 1)} s${longest})`;
      });
      lines.push(`The maintenance pass's ANALYZE and VACUUM during each scenario, on the app's one thread (every request in flight waited): ${each.join("; ")}.`, "");
    }
    if (d.api.statistics) {
      const how = pg && d.autovacuum !== "off" ? "autovacuum" : "the app's maintenance pass";
      lines.push(`The list was measured once the transactions table's statistics were current (${how}; waited ${d.api.statistics.waitedS} s${d.api.statistics.settled ? "" : ", and they were **not** current after it"}).`, "");
    }
    lines.push("| Target | Measured | Met |", "|---|---|---|");
    const t = (name, measured, ok) => lines.push(`| ${name} | ${measured} | ${ok === null ? "no target" : ok ? "yes" : "**no**"} |`);
    const ratio = (name) => {
      const r = d.api.results.find((x) => x.name.startsWith(name));
      return r.rps / route.rps;
    };
    const pixMin = pg ? 0.9 : 0.8;
    t(`create PIX ≥ ${pixMin} × bare route handler`, `${fmt(pix.rps / route.rps, 2)} ×`, pix.rps / route.rps >= pixMin);
    t("create PIX p99 ≤ 1.2 × bare route p99, 0 errors", `${pix.p99} ms vs ${route.p99} ms (${fmt(pix.p99 / route.p99, 2)} ×), ${pix.errors + pix.non2xx} errors`, pix.p99 <= 1.2 * route.p99 && pix.errors + pix.non2xx === 0);
    t("card (tokenize + create) ≥ 0.6 × bare route handler", `${fmt(ratio("create card"), 2)} ×`, ratio("create card") >= 0.6);
    t("read ≥ 0.95 × bare route handler", `${fmt(ratio("read"), 2)} ×`, ratio("read") >= 0.95);
    t("cash-out ≥ 0.6 × bare route handler", `${fmt(ratio("cash-out"), 2)} ×`, ratio("cash-out") >= 0.6);
    t("list ≥ 0.6 × bare route handler", `${fmt(ratio("list"), 2)} ×`, ratio("list") >= 0.6);
    for (const l of d.latencies) {
      // The status changes when the PUT's transaction commits, just before its answer: delivery is timed
      // from the answer (the commit), and from the PUT's start too (which adds the request itself).
      const fromCommit = l.afterResponse ?? l;
      t(
        `status change (the commit, seen as the PUT's answer) → delivery p50 ≤ 20 ms, p99 ≤ 100 ms (dispatcher in the ${l.where})`,
        `from the commit: p50 ${fromCommit.p50} ms, p99 ${fromCommit.p99} ms (${l.samples} payments); from the PUT's start: p50 ${l.p50} ms, p99 ${l.p99} ms`,
        fromCommit.p50 <= 20 && fromCommit.p99 <= 100,
      );
    }
    t(
      "dispatch ≥ 1,000 events/s (one worker), no duplicate, order kept",
      `${d.dispatch.eventsPerSecond}/s (${d.dispatch.delivered}/${d.dispatch.queued} delivered, ${d.dispatch.duplicates} duplicates, ${d.dispatch.outOfOrder} of ${d.dispatch.keysWithSeveral} two-event transactions out of order)`,
      d.dispatch.eventsPerSecond >= 1000 && d.dispatch.duplicates === 0 && d.dispatch.outOfOrder === 0,
    );
    // The memory targets are the embedded default's (the database in the app's process); with PostgreSQL
    // the app's memory is reported for comparison, against no target.
    t(pg ? "RSS under load (the 300 MB target is the embedded default's)" : "RSS under load ≤ 300 MB", `peak ${d.api.rss.peakMb} MB (idle ${d.api.rss.idleMb} MB after a restart)`, pg ? null : d.api.rss.peakMb <= 300);
    t(pg ? "RSS at first boot (the 400 MB target is the embedded default's)" : "RSS at first boot (creates the database) ≤ 400 MB", `${d.api.rss.firstBootMb} MB`, pg ? null : d.api.rss.firstBootMb <= 400);
    if (d.scale) {
      t("scale-out: two instances + one worker ≥ 1.6 × one instance (create PIX)", `${fmt(d.scale.pair)} vs ${fmt(d.scale.one)} req/s = ${fmt(d.scale.ratio, 2)} × (${d.scale.errors} errors); app CPU ${d.scale.cpuMsPerRequest} ms per request`, d.scale.ratio >= 1.6);
    }
    if (d.ledger) t("ledger:check after the bench", d.ledger.summary.replace(/\|/g, "/"), d.ledger.ok);
    lines.push("");
    lines.push(`For reference (no target: Next's own request handling is most of the gap): create PIX is ${fmt(pix.rps / d.bareNode.rps, 2)} × bare Node.`);
    lines.push("");
    for (const l of d.latencies) {
      lines.push(`Status change to webhook delivery (sandbox payment, dispatcher in the ${l.where}): p50 ${l.p50} ms, p95 ${l.p95} ms, p99 ${l.p99} ms, max ${l.max} ms over ${l.samples} payments.`, "");
    }
    if (d.scale) {
      const cores = os.cpus().length;
      lines.push(
        `Scale-out: one instance ${fmt(d.scale.one)} req/s, two instances at once ${fmt(d.scale.pair)} req/s. The app process spends ${d.scale.cpuMsPerRequest} ms of CPU per create PIX; with ${cores} cores shared by both instances, PostgreSQL, the worker and autocannon, the pair cannot exceed about ${fmt((cores * 1000) / d.scale.cpuMsPerRequest)} req/s of app CPU alone, before PostgreSQL's and autocannon's share: on this machine a second instance adds cores' worth of nothing, it only splits the same two cores.`,
        "",
      );
    }
  }
  if (all.checkout) {
    lines.push("## Checkout page first-load JS", "");
    const floor = all.floor;
    lines.push(`The scripts the HTML of /checkout/{secureId} loads (read from the build, gzipped): ${all.checkout.scripts} files, ${all.checkout.gzipKb} kB gzip (${all.checkout.rawKb} kB raw).`, "");
    if (floor) {
      lines.push(`The App Router floor in the same build (/bench-floor: one page, one trivial client component; generated for the bench build only): ${floor.scripts} files, ${floor.gzipKb} kB gzip.`, "");
      lines.push("| Target | Measured | Met |", "|---|---|---|");
      const over = all.checkout.gzipKb - floor.gzipKb;
      lines.push(`| checkout ≤ floor + 25 kB gzip | ${all.checkout.gzipKb} kB = floor ${floor.gzipKb} kB + ${over.toFixed(1)} kB | ${over <= 25 ? "yes" : "**no**"} |`);
      if (all.phone) {
        const p = all.phone;
        lines.push(`| phone profile (4× CPU, slow 4G, empty cache): PIX code and copy button visible and usable ≤ 2.5 s | code ${p.codeMs} ms, button ${p.buttonMs} ms, usable ${p.usableMs} ms (median of ${p.runs.length}) | ${Math.max(p.codeMs, p.buttonMs, p.usableMs) <= 2500 ? "yes" : "**no**"} |`);
      }
      lines.push("");
      if (all.phone?.floor) {
        const f = all.phone.floor;
        const arrivals = (runs, keys) => runs.map((r) => keys.map((k) => r[k]).join("/")).join(", ");
        lines.push(
          `The same phone profile at the floor page (/bench-floor, its one button; no target: what any page of this build takes on this machine and browser), its arrivals alternating with the checkout's in the same browser: button visible ${f.buttonMs} ms, usable (a click counts) ${f.usableMs} ms (median of ${f.runs.length}). Checkout usable − floor usable: ${all.phone.usableMs - f.usableMs} ms. Each arrival, checkout code/button/usable: ${arrivals(all.phone.runs, ["codeMs", "buttonMs", "usableMs"])} ms; floor button/usable: ${arrivals(f.runs, ["buttonMs", "usableMs"])} ms.`,
          "",
        );
      }
    }
    lines.push("| Chunk | kB gzip |", "|---|---:|");
    for (const f of all.checkout.files) lines.push(`| ${f.file} | ${f.kb} |`);
    lines.push("");
  }
  lines.push("## How to read this", "");
  lines.push("- *bare route handler*: `app/api/bench-baseline/route.bench.ts` (only in a benchmark build, BENCH_BUILD=1, and with BENCH_BASELINE=1): JSON body, one insert into transactions through the app's db client. *bare Node*: `scripts/bench/bare-node.mjs`, node:http + the same insert with postgres.js or PGlite. They are ceilings: create PIX also authenticates (a hash lookup), rate-limits, validates, builds the BR Code, and writes the transaction, its timeline entry and its outbox event in one database transaction.");
  lines.push("- Figures on a 2-core machine shared with other work are noisy; compare ratios measured in the same run rather than absolute numbers across runs.");
  lines.push("- Where the time goes and what was changed to get closer to the ceilings: tests/bench/PROFILE.md.");
  lines.push("");
  return lines.join("\n");
}

async function main() {
  if (process.env.BENCH_REPORT_FROM) {
    const md = report(JSON.parse(readFileSync(process.env.BENCH_REPORT_FROM, "utf8")));
    writeFileSync(path.join(ROOT, "tests/bench/REPORT.md"), md + "\n");
    return;
  }
  const all = { date: new Date().toISOString(), cfg: { ...cfg, quick }, machine: machine(), loadStart: load(), processes: otherNodeProcesses(), dbs: [] };
  log("config", JSON.stringify(cfg));
  if (process.env.BENCH_SKIP_BUILD !== "1") {
    log(`building into ${DIST}`);
    writeFloorPage();
    try {
      const b = spawnSync(process.execPath, [path.join(ROOT, "scripts/ensure-build.mjs")], { cwd: ROOT, stdio: "inherit", env: { ...process.env, NEXT_DIST_DIR: DIST, NEXT_TELEMETRY_DISABLED: "1", BENCH_BUILD: "1" } });
      if (b.status !== 0) throw new Error("build failed");
    } finally {
      rmSync(FLOOR_DIR, { recursive: true, force: true });
    }
  }
  // The bench build alone (with its floor page), for scripts/bench/interleaved.mjs, cpu.mjs and runs
  // with BENCH_SKIP_BUILD=1.
  if (process.env.BENCH_BUILD_ONLY === "1") return;
  const receiver = await startReceiver(PORTS.receiver);
  try {
    for (const kind of cfg.dbs) {
      const db = await createDatabase(kind, cfg.pgBase);
      try {
        // First boot creates the database (PGlite's initdb runs inside the app process and its memory
        // is not returned) and migrates; the measured app is a restart, as in steady operation.
        log(`${kind}: first boot (create and migrate)`);
        const first = await startApp(db, PORTS.app, {});
        const firstBootMb = Math.round(rssMb(first.pid));
        await first.stop();
        log(`${kind}: starting the app (first boot RSS ${firstBootMb} MB)`);
        const nodeArgs = cfg.profile ? ["--cpu-prof", `--cpu-prof-dir=${RESULTS}/profiles-${kind}`] : [];
        const app = await startApp(db, PORTS.app, { BENCH_BASELINE: "1", BENCH_BUILD: "1" }, nodeArgs);
        let apiRes;
        try {
          if (!all.checkout) {
            const t = await api(app.url, "POST", "/api/v1/transactions", pixBody(), AUTH);
            all.checkout = await firstLoadJs(`${app.url}/checkout/${t.data.secureId}`);
            all.docs = await firstLoadJs(`${app.url}/docs`);
            all.floor = await firstLoadJs(`${app.url}/bench-floor`).catch((e) => (log(`no floor page in this build (${e.message}): build it with npm run bench or BENCH_BUILD_ONLY=1`), null));
            log(`checkout first-load JS ${all.checkout.gzipKb} kB gzip; floor ${all.floor?.gzipKb} kB`);
            if (process.env.BENCH_PHONE !== "0") {
              all.phone = await phoneProfile(`${app.url}/checkout/${t.data.secureId}`, 3, { floorUrl: all.floor ? `${app.url}/bench-floor` : undefined }).catch((e) => (log(`phone profile failed: ${e.message}`), null));
              if (all.phone) log(`phone: code ${all.phone.codeMs} ms, button ${all.phone.buttonMs} ms, usable ${all.phone.usableMs} ms; floor page: button ${all.phone.floor?.buttonMs} ms, usable ${all.phone.floor?.usableMs} ms`);
            }
          }
          apiRes = await apiScenarios(app, db);
        } finally {
          await app.stop();
        }
        const bareNode = await bareNodeScenario(db);
        const dispatch = await dispatchThroughput(db, receiver, { port: PORTS.app + 1, events: cfg.events });
        const latencies = [await deliveryLatency(db, receiver, { where: "app", port: PORTS.app + 2, samples: cfg.latencySamples })];
        // PGlite is one process per directory: a separate worker needs PostgreSQL.
        if (kind === "postgres") {
          const w = await deliveryLatency(db, receiver, { where: "worker", port: PORTS.app + 2, samples: cfg.latencySamples }).catch((e) => (log(`worker latency failed: ${e.message}`), null));
          if (w) latencies.push(w);
        }
        const scale = kind === "postgres" && process.env.BENCH_SCALE !== "0" ? await scaleOut(db).catch((e) => (log(`scale-out failed: ${e.message}`), null)) : null;
        // The ledger after everything the bench did to it (no app is running on the database now).
        const checkEnv = { ...process.env, KEY_ENCRYPTION_SECRET: "bench-key-encryption-secret-0123456789abcdef", ...db.env };
        if (!db.env.DATABASE_URL) delete checkEnv.DATABASE_URL;
        const check = spawnSync(path.join(ROOT, "node_modules/.bin/tsx"), ["scripts/ledger-check.ts"], { cwd: ROOT, encoding: "utf8", env: checkEnv });
        const ledger = { ok: check.status === 0, summary: `${check.stdout ?? ""}${check.stderr ?? ""}`.trim().split("\n").slice(-3).join(" ") };
        log(`${kind} ledger:check: ${ledger.ok ? "ok" : "FAILED"} ${ledger.summary}`);
        all.dbs.push({ kind, version: db.version, autovacuum: db.autovacuum, api: { ...apiRes, rss: { ...apiRes.rss, firstBootMb } }, bareNode, dispatch, latencies, scale, ledger });
      } finally {
        await db.drop();
      }
    }
  } finally {
    await receiver.close();
  }
  all.loadEnd = load();
  writeFileSync(path.join(RESULTS, `bench-${all.date.replace(/[:.]/g, "-")}.json`), JSON.stringify(all, null, 2));
  const md = report(all);
  writeFileSync(path.join(ROOT, "tests/bench/REPORT.md"), md + "\n");
  console.log("\n" + md);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
