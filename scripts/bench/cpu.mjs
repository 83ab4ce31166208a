// CPU per request, for the app process and for all of PostgreSQL's processes (from /proc), per scenario:
// bare route, create PIX, read, list (after the table's statistics), cash-out; 3,000 requests each at
// 16 connections, against the bench build. Prints one line per scenario; REPORT.md is not touched.
//
//   NEXT_DIST_DIR=.next-bench node scripts/bench/cpu.mjs [postgres|pglite]
//
// On PGlite the database runs inside the app process: its CPU is in the app's figure.
import { api, cannon, cpuMs, createDatabase, pgCpu, startApp, statisticsSettled } from "./lib.mjs";
import { AUTH, pixBody } from "./fixtures.mjs";
const kind = process.argv[2] ?? "postgres";
const db = await createDatabase(kind, "postgres://postgres@127.0.0.1:5432/postgres");
const app = await startApp(db, Number(process.env.BENCH_PORT ?? 3792), { BENCH_BASELINE: "1" });
const json = { "content-type": "application/json" };
try {
  const big = await api(app.url, "POST", "/api/v1/transactions", { ...pixBody(), amount: 100_000_000, items: [{ title: "F", unitPrice: 100_000_000, quantity: 1, tangible: false }] }, AUTH);
  await api(app.url, "PUT", `/api/v1/transactions/${big.data.id}/test`, { status: "paid" }, AUTH);
  const sc = {
    bare: { url: `${app.url}/api/bench-baseline`, method: "POST", headers: json, body: JSON.stringify(pixBody()) },
    create: { url: `${app.url}/api/v1/transactions`, method: "POST", headers: { ...json, authorization: AUTH }, body: JSON.stringify(pixBody()) },
    read: { url: `${app.url}/api/v1/transactions/${big.data.id}`, method: "GET", headers: { authorization: AUTH } },
    list: { url: `${app.url}/api/v1/transactions?limit=20`, method: "GET", headers: { authorization: AUTH } },
    cashout: { url: `${app.url}/api/v1/cashOut/request`, method: "POST", headers: { ...json, authorization: AUTH }, body: JSON.stringify({ amount: 1, pixKey: "bench@example.com" }) },
  };
  for (const [k, o] of Object.entries(sc)) {
    await cannon("w", { ...o, connections: 8, amount: 300, maxSeconds: 5 });
    if (k === "list") await statisticsSettled(db, app);
    const c0 = cpuMs(app.pid); const p0 = pgCpu();
    const r = await cannon(k, { ...o, connections: 16, amount: 3000, maxSeconds: 20 });
    const c1 = cpuMs(app.pid); const p1 = pgCpu();
    console.log(`${k}: ${Math.round(r.rps)} req/s, app CPU ${((c1 - c0) / r.requests).toFixed(2)} ms/request, PostgreSQL CPU ${((p1 - p0) / r.requests).toFixed(2)} ms/request`);
  }
} finally { await app.stop(); await db.drop(); }
