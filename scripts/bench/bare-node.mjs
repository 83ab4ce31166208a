// The benchmark's outer ceiling: a bare Node http server that reads a JSON body and inserts one
// pending PIX row into the app's transactions table, with postgres.js (DATABASE_URL) or PGlite
// (PGLITE_DIR). No framework, no auth, no validation, no timeline or outbox: the cost of HTTP plus
// one insert on this machine. Usage: PORT=3769 DATABASE_URL=... node scripts/bench/bare-node.mjs
import http from "node:http";
import { randomUUID } from "node:crypto";

const port = Number(process.env.PORT ?? 3769);
const INSERT = `insert into transactions
  (company_id, secure_id, status, payment_method, amount, acquirer_type, customer, customer_email, customer_document, items)
  values ($1, $2, 'pending', 'pix', $3, 'bench', $4, $5, $6, $7) returning id`;

let query;
if (process.env.DATABASE_URL) {
  const { default: postgres } = await import("postgres");
  const sql = postgres(process.env.DATABASE_URL, { max: Number(process.env.DATABASE_POOL_SIZE ?? 10), onnotice: () => {} });
  query = async (params) => (await sql.unsafe(INSERT, params))[0];
} else {
  const { PGlite } = await import("@electric-sql/pglite");
  const db = new PGlite(process.env.PGLITE_DIR);
  query = async (params) => (await db.query(INSERT, params)).rows[0];
}

const [{ id: companyId }] = await (async () => {
  if (process.env.DATABASE_URL) {
    const { default: postgres } = await import("postgres");
    const sql = postgres(process.env.DATABASE_URL, { max: 1, onnotice: () => {} });
    const rows = await sql`select id from companies order by id limit 1`;
    await sql.end();
    return rows;
  }
  return [{ id: process.env.BENCH_COMPANY_ID ?? 1 }];
})();

const server = http.createServer((req, res) => {
  if (req.method === "GET") {
    res.writeHead(200, { "content-type": "application/json" });
    res.end('{"status":"ok"}');
    return;
  }
  let text = "";
  req.on("data", (c) => (text += c));
  req.on("end", async () => {
    try {
      const body = JSON.parse(text || "{}");
      const amount = Number(body.amount ?? 1000);
      const c = body.customer ?? {};
      const doc = c.document?.number ?? "11144477735";
      const customer = { name: c.name ?? "Bench", email: c.email ?? "bench@example.com", phone: null, externalRef: null, document: { type: "cpf", number: doc } };
      const row = await query([
        companyId,
        randomUUID(),
        amount,
        customer,
        customer.email,
        doc,
        [{ title: "Bench", unitPrice: amount, quantity: 1, tangible: false }],
      ]);
      res.writeHead(201, { "content-type": "application/json" });
      res.end(JSON.stringify({ success: true, status: 201, data: { id: Number(row.id) } }));
    } catch (e) {
      res.writeHead(500, { "content-type": "application/json" });
      res.end(JSON.stringify({ success: false, message: String(e) }));
    }
  });
});
server.listen(port, "127.0.0.1", () => console.log(`bare-node listening on ${port}`));
process.on("SIGTERM", () => server.close(() => process.exit(0)));
