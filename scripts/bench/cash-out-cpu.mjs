// CPU per cash-out including its background steps: a burst of 2,000 cash-out requests at 16
// connections, then the wait until the sandbox has completed every one (SANDBOX_PSP_DELAY_MS=200).
// Prints, per round, the app's CPU per cash-out during the burst and until all were completed, and all
// of PostgreSQL's processes' CPU (on PGlite the database runs inside the app: its CPU is in the app's).
// REPORT.md is not touched.
//
//   NEXT_DIST_DIR=.next-bench node scripts/bench/cash-out-cpu.mjs [postgres|pglite]
import { api, cannon, cpuMs, createDatabase, pgCpu, sleep, startApp } from "./lib.mjs";
import { AUTH, pixBody } from "./fixtures.mjs";

const kind = process.argv[2] ?? "postgres";
const rounds = Number(process.env.BENCH_ROUNDS ?? 2);
const db = await createDatabase(kind, "postgres://postgres@127.0.0.1:5432/postgres");
const app = await startApp(db, Number(process.env.BENCH_PORT ?? 3794), { SANDBOX_PSP_DELAY_MS: "200" });
const json = { "content-type": "application/json" };
/** Cash-outs the sandbox has not finished (pending or processing). */
const open = async () => {
  let n = 0;
  for (const s of ["pending", "processing"]) n += (await api(app.url, "GET", `/api/v1/cashOut?status=${s}&limit=1`, undefined, AUTH)).data.pagination.total;
  return n;
};
try {
  const big = await api(app.url, "POST", "/api/v1/transactions", { ...pixBody(), amount: 100_000_000, items: [{ title: "F", unitPrice: 100_000_000, quantity: 1, tangible: false }] }, AUTH);
  await api(app.url, "PUT", `/api/v1/transactions/${big.data.id}/test`, { status: "paid" }, AUTH);
  const cashOut = { url: `${app.url}/api/v1/cashOut/request`, method: "POST", headers: { ...json, authorization: AUTH }, body: JSON.stringify({ amount: 1, pixKey: "bench@example.com" }) };
  await cannon("warmup", { ...cashOut, connections: 8, amount: 300, maxSeconds: 5 });
  while ((await open()) > 0) await sleep(200);
  for (let round = 0; round < rounds; round++) {
    const t0 = Date.now();
    const c0 = cpuMs(app.pid);
    const p0 = pgCpu();
    const r = await cannon("cash-out", { ...cashOut, connections: 16, amount: 2000, maxSeconds: 60 });
    const c1 = cpuMs(app.pid);
    while ((await open()) > 0) await sleep(100);
    const c2 = cpuMs(app.pid);
    const p2 = pgCpu();
    const per = (ms) => (ms / r.requests).toFixed(2);
    console.log(
      `${kind}: ${r.requests} cash-outs at ${Math.round(r.rps)} req/s; app CPU ${per(c1 - c0)} ms per cash-out during the burst, ` +
        `${per(c2 - c0)} until all were completed (${((Date.now() - t0) / 1000).toFixed(1)} s); PostgreSQL CPU ${per(p2 - p0)} ms per cash-out`,
    );
  }
} finally {
  await app.stop();
  await db.drop();
}
