// The webhook scenarios of the benchmark: dispatch throughput of one worker, and the time from a
// status change to its delivery. Used by run.mjs (the full bench) and one.mjs (one scenario).
import { AUTH, log, pixBody } from "./fixtures.mjs";
import { api, cannon, percentile, sleep, startApp, startWorker } from "./lib.mjs";

/**
 * Per ordering key (a transaction), the webhook-ids must arrive in increasing order: the
 * dispatcher's guarantee. Returns the keys seen with more than one event and how many broke it.
 */
function orderCheck(got) {
  const byTx = new Map();
  for (const g of got) {
    const data = JSON.parse(g.body).data;
    const list = byTx.get(data.id) ?? [];
    list.push(Number(g.id));
    byTx.set(data.id, list);
  }
  let keysWithSeveral = 0;
  let outOfOrder = 0;
  for (const ids of byTx.values()) {
    if (ids.length < 2) continue;
    keysWithSeveral += 1;
    if (ids.some((id, i) => i > 0 && id <= ids[i - 1])) outOfOrder += 1;
  }
  return { keysWithSeveral, outOfOrder };
}

/**
 * Events queued with the dispatcher off (created PIX payments with a postbackUrl; some of them then
 * paid, so their transaction has two events to deliver in order), then drained by one worker:
 * deliveries per second, duplicates, order.
 */
export async function dispatchThroughput(db, receiver, { port, events }) {
  // The events are queued with no dispatcher and drained by the worker after the app stops; on the
  // embedded database a start with jobs off is refused (no worker could open it beside the app), so the
  // bench says it means it.
  const app = await startApp(db, port, { BACKGROUND_JOBS: "off", TEST_ALLOW_JOBS_OFF_ON_PGLITE: "true" });
  let queued;
  try {
    const o = { url: `${app.url}/api/v1/transactions`, method: "POST", headers: { "content-type": "application/json", authorization: AUTH }, body: JSON.stringify(pixBody(receiver.url)) };
    const paired = Math.min(200, Math.floor(events / 10));
    const made = await cannon("queue events", { ...o, connections: 16, amount: events - 2 * paired, maxSeconds: 120 });
    queued = made.requests - made.non2xx;
    for (let i = 0; i < paired; i++) {
      const t = await api(app.url, "POST", "/api/v1/transactions", pixBody(receiver.url), AUTH);
      await api(app.url, "PUT", `/api/v1/transactions/${t.data.id}/test`, { status: "paid" }, AUTH);
      queued += 2;
    }
  } finally {
    await app.stop(); // PGlite: one process per directory
  }
  receiver.got.length = 0;
  const worker = await startWorker(db, {});
  const started = performance.now();
  const deadline = Date.now() + 180_000;
  while (receiver.got.length < queued && Date.now() < deadline) await sleep(100);
  await sleep(500); // a late duplicate would show here
  const got = receiver.got.length;
  await worker.stop();
  const first = receiver.got[0]?.at ?? started;
  const last = receiver.got[got - 1]?.at ?? started;
  const ids = receiver.got.map((g) => g.id);
  const r = {
    queued,
    delivered: got,
    duplicates: ids.length - new Set(ids).size,
    ...orderCheck(receiver.got),
    eventsPerSecond: +(got / Math.max(0.001, (last - first) / 1000)).toFixed(0),
    eventsPerSecondFromWorkerStart: +(got / Math.max(0.001, (last - started) / 1000)).toFixed(0),
  };
  log(`${db.kind} dispatch: ${r.delivered}/${r.queued} in ${((last - first) / 1000).toFixed(1)} s = ${r.eventsPerSecond}/s; ${r.duplicates} duplicates; ${r.outOfOrder}/${r.keysWithSeveral} transactions out of order`);
  return r;
}

/** Time from a status change (sandbox payment) to its webhook at the receiver, dispatcher in the app or a worker. */
export async function deliveryLatency(db, receiver, { where = "app", port, samples }) {
  const app = await startApp(db, port, where === "worker" ? { BACKGROUND_JOBS: "off" } : {});
  const worker = where === "worker" ? await startWorker(db, {}) : null;
  const lat = [];
  const afterResponse = [];
  try {
    for (let i = 0; i < samples; i++) {
      const t = await api(app.url, "POST", "/api/v1/transactions", pixBody(receiver.url), AUTH);
      await sleep(150);
      const t0 = performance.now();
      await api(app.url, "PUT", `/api/v1/transactions/${t.data.id}/test`, { status: "paid" }, AUTH);
      const answered = performance.now();
      const deadline = Date.now() + 15_000;
      let hit;
      while (!hit && Date.now() < deadline) {
        hit = receiver.got.find((g) => {
          if (g.at < t0) return false;
          const data = JSON.parse(g.body).data; // jsonb does not keep key order: parse, don't grep
          return data.id === t.data.id && data.status === "paid";
        });
        if (!hit) await sleep(5);
      }
      if (hit) {
        lat.push(hit.at - t0);
        // The change commits before the PUT answers: a delivery can even arrive before the answer.
        afterResponse.push(Math.max(0, hit.at - answered));
      }
    }
  } finally {
    await worker?.stop();
    await app.stop();
  }
  const r = { where, samples: lat.length, p50: +percentile(lat, 50).toFixed(0), p95: +percentile(lat, 95).toFixed(0), p99: +percentile(lat, 99).toFixed(0), max: +Math.max(...lat).toFixed(0),
    afterResponse: { p50: +percentile(afterResponse, 50).toFixed(0), p99: +percentile(afterResponse, 99).toFixed(0) } };
  log(`${db.kind} status->delivery (dispatcher in the ${where}): p50 ${r.p50} ms p95 ${r.p95} ms p99 ${r.p99} ms; after the PUT's answer p50 ${r.afterResponse.p50} p99 ${r.afterResponse.p99}`);
  return r;
}
