/**
 * The query strings of the four lists (transactions, cash-outs, payment links, statement) and their
 * /v1 twins: nothing a client sends is silently ignored. A list-valued filter merges its repeated
 * and bracket forms (`x=a&x=b`, `x[]=a`, `x[0]=a`: what PHP's http_build_query, qs and jQuery send);
 * a single-valued parameter sent twice with different values, an unknown parameter (with the name
 * meant, for a snake_case or wrong-case one), `page` next to `cursor` and `page` on the statement are a 400. Cash-outs and
 * payment links page by `cursor` as transactions do (keyset on created_at desc, id desc).
 */
import { beforeAll, describe, expect, it } from "vitest";
import { eq, inArray } from "drizzle-orm";
import { call } from "../helpers/app";
import { createTestAccount } from "../helpers/accounts";
import { insertTransaction } from "../helpers/fixtures";
import { createCheckout } from "../helpers/flows";
import { cashOut, paidPix } from "../helpers/money";
import { getDb } from "@/lib/db/client";
import { cashOuts, checkouts } from "@/lib/db/schema";
import type { CreatedAccount } from "@/lib/services/accounts/accounts";

let a: CreatedAccount;
const byMethod: Record<string, number[]> = { pix: [], boleto: [], credit_card: [] };
const cashOutIds: number[] = [];
const checkoutIds: number[] = [];

beforeAll(async () => {
  a = await createTestAccount("Loja Filtros");
  for (const [method, n] of [["pix", 2], ["boleto", 3], ["credit_card", 4]] as const) {
    for (let i = 0; i < n; i++) byMethod[method].push((await insertTransaction(a.companyId, { paymentMethod: method })).id);
  }
  await paidPix(a, 100_000);
  for (let i = 0; i < 5; i++) {
    const res = await cashOut(a, { amount: 1000 + i, pixKey: "maria@example.com" });
    expect(res.status, res.text).toBe(201);
    cashOutIds.push(res.body.data.id);
  }
  for (let i = 0; i < 5; i++) checkoutIds.push((await createCheckout(a.secretKey, { amount: 5000 + i, description: `Link ${i}` })).id);
  // Ties on created_at: the cursor must go on by id (the second key of the order), not skip or repeat.
  const at = new Date("2026-03-01T12:00:00.000Z");
  await getDb().update(cashOuts).set({ createdAt: at }).where(inArray(cashOuts.id, cashOutIds.slice(1, 4)));
  await getDb().update(checkouts).set({ createdAt: at }).where(inArray(checkouts.id, checkoutIds.slice(1, 4)));
}, 120_000);

async function ok(path: string) {
  const res = await call("GET", path, { auth: a.secretKey });
  expect(res.status, `${path}: ${res.text}`).toBe(200);
  return res.body;
}

async function bad(path: string) {
  const res = await call("GET", path, { auth: a.secretKey });
  expect(res.status, `${path}: ${res.text}`).toBe(400);
  expect(res.body).toMatchObject({ success: false, status: 400, code: "validation_error" });
  expect(res.body.requestId).toBeTruthy();
  return res.body as { message: string; errors: { field: string; message: string }[] };
}

const ids = (body: any) => (body.data.data ?? body.data).map((t: { id: number }) => t.id).sort((x: number, y: number) => x - y);
const sorted = (xs: number[]) => [...xs].sort((x, y) => x - y);

describe("list-valued filters: every form merges into the comma list", () => {
  const cardAndBoleto = () => sorted([...byMethod.credit_card, ...byMethod.boleto]);
  it.each([
    ["paymentMethod=credit_card,boleto"],
    ["paymentMethod=credit_card&paymentMethod=boleto"],
    ["paymentMethod=boleto&paymentMethod=credit_card"],
    ["paymentMethod[]=credit_card&paymentMethod[]=boleto"],
    ["paymentMethod%5B%5D=credit_card&paymentMethod%5B%5D=boleto"],
    ["paymentMethod[0]=credit_card&paymentMethod[1]=boleto"],
    ["paymentMethod%5B0%5D=credit_card&paymentMethod%5B1%5D=boleto"],
    ["paymentMethod=credit_card&paymentMethod[]=boleto"],
  ])("GET /api/v1/transactions?%s lists the card and boleto charges", async (query) => {
    const body = await ok(`/api/v1/transactions?limit=100&${query}`);
    expect(ids(body)).toEqual(cardAndBoleto());
    expect(body.data.pagination.total).toBe(7);
  });

  it("a single bracketed value is that filter: paymentMethod[]=boleto lists the boleto charges only", async () => {
    expect(ids(await ok("/api/v1/transactions?paymentMethod[]=boleto"))).toEqual(byMethod.boleto);
    expect(ids(await ok("/api/v1/transactions?paymentMethod[0]=boleto"))).toEqual(byMethod.boleto);
  });

  it("a merged value is checked as the comma list is: paymentMethod=pix&paymentMethod=cash is a 400 naming it", async () => {
    const body = await bad("/api/v1/transactions?paymentMethod=pix&paymentMethod=cash");
    expect(body.errors).toEqual([{ field: "paymentMethod", message: "must be a comma-separated list of: pix, boleto, credit_card" }]);
  });

  it("status of cash-outs and payment links, type and account of the statement merge the same way", async () => {
    expect((await ok("/api/v1/cashOut?status=pending&status=processing&status[]=completed&status[2]=failed")).data.pagination.total).toBe(5);
    expect((await ok("/api/v1/checkouts?status[]=open&status[]=paid")).data.pagination.total).toBe(5);
    const both = await ok("/api/v1/balance/statement?account=available&account=waiting_funds&type[]=payment&type[]=fee&limit=100");
    const comma = await ok("/api/v1/balance/statement?account=available,waiting_funds&type=payment,fee&limit=100");
    expect(both.data.data.length).toBeGreaterThan(0);
    expect(both.data).toEqual(comma.data);
  });

  it("/v1 reads the same forms", async () => {
    const body = await ok("/v1/transactions?limit=100&paymentMethod[]=credit_card&paymentMethod[]=boleto");
    expect(ids(body)).toEqual(cardAndBoleto());
  });
});

describe("single-valued parameters and unknown parameters are a 400 naming the parameter", () => {
  it.each([
    ["/api/v1/transactions?limit=1&limit=2", "limit"],
    ["/api/v1/transactions?page=1&page=2", "page"],
    ["/api/v1/transactions?from=2026-01-01&from=2026-02-01", "from"],
    ["/api/v1/cashOut?externalRef=a&externalRef=b", "externalRef"],
    ["/api/v1/checkouts?cursor=&cursor=x", "cursor"],
    ["/api/v1/balance/statement?limit=5&limit=6", "limit"],
    ["/v1/transactions?limit=1&limit=2", "limit"],
  ])("%s", async (path, field) => {
    const body = await bad(path);
    expect(body.errors).toEqual([{ field, message: "takes one value but was sent 2 times with different values" }]);
    expect(body.message).toBe(`The query is invalid: ${field} takes one value but was sent 2 times with different values.`);
  });

  it("the same value twice is that value", async () => {
    expect((await ok("/api/v1/transactions?limit=2&limit=2")).data.pagination.limit).toBe(2);
  });

  it("brackets on a single-valued parameter are refused", async () => {
    const body = await bad("/api/v1/transactions?limit[]=2");
    expect(body.errors).toEqual([{ field: "limit[]", message: "takes one value: send limit=<value> once, without brackets" }]);
  });

  it.each([
    ["/api/v1/transactions?payment_method=boleto", "payment_method", "paymentMethod"],
    ["/api/v1/transactions?paymentmethod=boleto", "paymentmethod", "paymentMethod"],
    ["/api/v1/transactions?PaymentMethod=boleto", "PaymentMethod", "paymentMethod"],
    ["/api/v1/transactions?payment_method[]=boleto", "payment_method[]", "paymentMethod"],
    ["/api/v1/transactions?external_ref=x", "external_ref", "externalRef"],
    ["/api/v1/transactions?per_page=1", "per_page", "limit"],
    ["/api/v1/cashOut?pageSize=1", "pageSize", "limit"],
    ["/api/v1/checkouts?STATUS=open", "STATUS", "status"],
    ["/api/v1/balance/statement?entry-type=fee", "entry-type", null],
    ["/v1/transactions?payment_method=boleto", "payment_method", "paymentMethod"],
  ])("%s names %s and the parameter meant", async (path, field, meant) => {
    const body = await bad(path);
    expect(body.errors).toHaveLength(1);
    expect(body.errors[0].field).toBe(field);
    if (meant) {
      expect(body.errors[0].message).toBe(`is not a parameter of this list; did you mean ${meant}?`);
      expect(body.message).toBe(`The query is invalid: ${field} is not a parameter of this list; did you mean ${meant}?`);
    } else expect(body.errors[0].message).toMatch(/^is not a parameter of this list; its parameters are: from, to, type, account, cursor, limit$/);
  });

  it("an unknown parameter lists the parameters the list takes", async () => {
    const body = await bad("/api/v1/cashOut?foo=1");
    expect(body.errors).toEqual([
      { field: "foo", message: "is not a parameter of this list; its parameters are: page, limit, cursor, status, externalRef, from, to" },
    ]);
  });

  it("a cache-buster (_=123) is refused too, saying why none is needed", async () => {
    const body = await bad("/api/v1/transactions?_=1712345678901");
    expect(body.errors[0]).toEqual({
      field: "_",
      message: "is not a parameter of this list (a cache-buster is not needed: list answers carry Cache-Control: no-store)",
    });
    const res = await call("GET", "/api/v1/transactions", { auth: a.secretKey });
    expect(res.headers.get("cache-control")).toBe("no-store");
  });

  it("names of Object.prototype (toString, constructor, __proto__) are unknown parameters like any other", async () => {
    const body = await bad("/api/v1/balance/statement?toString=1&constructor=1&__proto__=1");
    expect(body.errors.map((e) => e.field)).toEqual(["toString", "constructor", "__proto__"]);
    for (const e of body.errors) expect(e.message).toMatch(/^is not a parameter of this list/);
  });

  it("every problem is listed", async () => {
    const body = await bad("/api/v1/transactions?per_page=1&limit=1&limit=3");
    expect(body.message).toBe("The query is invalid: 2 parameters have problems.");
    expect(body.errors.map((e) => e.field)).toEqual(["per_page", "limit"]);
  });

  it("thousands of made-up names get a small answer: the count of all, the first 20 named", async () => {
    const names = Array.from({ length: 3000 }, (_, i) => `x${i}=1`).join("&");
    const res = await call("GET", `/api/v1/transactions?${names}&x0=2`, { auth: a.secretKey });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe("The query is invalid: 3000 parameters have problems; the first 20 are listed.");
    expect(res.body.errors.map((e: { field: string }) => e.field)).toEqual(Array.from({ length: 20 }, (_, i) => `x${i}`));
    expect(res.text.length).toBeLessThan(8_000);
  });
});

describe("paging: cash-outs and payment links by cursor, the statement by cursor only", () => {
  async function walk(path: string, limit: number, pick: (body: any) => any) {
    const seen: number[] = [];
    let cursor: string | null = "";
    for (let n = 0; n < 20 && cursor !== null; n++) {
      const page = pick(await ok(`${path}?limit=${limit}&cursor=${encodeURIComponent(cursor)}`));
      expect(page.pagination).toMatchObject({ page: 1, limit, total: 5 });
      expect(page.pagination).toHaveProperty("nextCursor");
      seen.push(...page.data.map((r: { id: number }) => r.id));
      cursor = page.pagination.nextCursor;
    }
    return seen;
  }

  it.each([
    ["/api/v1/cashOut", () => cashOutIds, (b: any) => b.data],
    ["/api/v1/checkouts", () => checkoutIds, (b: any) => b.data],
    ["/v1/cashOut", () => cashOutIds, (b: any) => b],
    ["/v1/checkouts", () => checkoutIds, (b: any) => b],
  ])("%s walks every row once, newest first (created_at desc, id desc), with pagination.nextCursor", async (path, all, pick) => {
    const seen = await walk(path, 2, pick);
    expect(sorted(seen)).toEqual(sorted(all()));
    // The order: the one left at its creation time is the newest; the three tied ones by id desc.
    const [rows] = [await ok(`/api/v1/${path.split("/").pop()}?limit=100`)];
    expect(seen).toEqual(rows.data.data.map((r: { id: number }) => r.id));
    expect(seen.slice(-3)).toEqual([...all().slice(1, 4)].reverse());
  });

  it("the last cursor page says nextCursor: null; without cursor there is no nextCursor", async () => {
    const last = await ok("/api/v1/cashOut?limit=100&cursor=");
    expect(last.data.pagination.nextCursor).toBeNull();
    expect((await ok("/api/v1/checkouts?limit=2")).data.pagination).not.toHaveProperty("nextCursor");
  });

  it("a cursor the list did not make is a 400 naming cursor", async () => {
    for (const path of ["/api/v1/cashOut", "/api/v1/checkouts"]) {
      expect((await bad(`${path}?cursor=bm9wZQ`)).errors).toEqual([expect.objectContaining({ field: "cursor" })]);
    }
  });

  it("page next to cursor is a 400 naming page (one way of paging or the other, never one ignored)", async () => {
    for (const path of ["/api/v1/transactions", "/api/v1/cashOut", "/api/v1/checkouts", "/v1/transactions", "/v1/cashOut"]) {
      for (const query of ["cursor=&page=2", "page=1&cursor="]) {
        expect((await bad(`${path}?${query}`)).errors, `${path}?${query}`).toEqual([
          { field: "page", message: "cannot be sent with cursor: page by cursor (each page's pagination.nextCursor) or by page number, not both" },
        ]);
      }
    }
    // Each alone still pages.
    expect((await ok("/api/v1/cashOut?page=2&limit=2")).data.pagination.page).toBe(2);
    expect((await ok("/api/v1/cashOut?cursor=&limit=2")).data.pagination.nextCursor).toEqual(expect.any(String));
  });

  it("the statement refuses page with a 400 saying it pages by cursor", async () => {
    for (const path of ["/api/v1/balance/statement?page=2", "/v1/balance/statement?page=2"]) {
      const body = await bad(path);
      expect(body.errors).toEqual([
        { field: "page", message: "is not a parameter of the statement: it pages by cursor (send each page's nextCursor as cursor until it is null)" },
      ]);
    }
  });
});

describe("the family's list filters (their \"Listar transações\"), on both dialects", () => {
  let b: CreatedAccount;
  const t: Record<string, number> = {};
  beforeAll(async () => {
    b = await createTestAccount("Loja Filtros Familia");
    const customer = (name: string, phone: string) => ({ name, email: "c@example.com", phone, externalRef: null, document: { type: "cpf" as const, number: "11144477735" } });
    t.joana = (await insertTransaction(b.companyId, { customer: customer("Joana D'Arc Souza", "11987654321") })).id;
    t.card3 = (await insertTransaction(b.companyId, { paymentMethod: "credit_card", status: "paid", installments: 3, customer: customer("Pedro Alves", "21999998888") })).id;
    t.shipped = (await insertTransaction(b.companyId, { status: "paid", traceable: true, deliveryStatus: "in_transit", customer: customer("Ana Lima", "31988887777") })).id;
  }, 60_000);

  async function listed(path: string) {
    const res = await call("GET", path, { auth: b.secretKey });
    expect(res.status, `${path}: ${res.text}`).toBe(200);
    return ids(res.body).join(",");
  }
  const both = async (query: string) => {
    const api = await listed(`/api/v1/transactions?${query}`);
    expect(await listed(`/v1/transactions?${query}`), query).toBe(api);
    return api;
  };

  it("paymentMethods (any case, merged with paymentMethod), status=waiting_payment, status=authorized", async () => {
    expect(await both("paymentMethods=CREDIT_CARD")).toBe(`${t.card3}`);
    expect(await both("paymentMethods=credit_card&paymentMethod=pix")).toBe([t.joana, t.card3, t.shipped].sort((x, y) => x - y).join(","));
    expect(await both("status=waiting_payment")).toBe(`${t.joana}`);
    expect(await both("status=authorized")).toBe("");
    expect(await both("status=authorized,paid")).toBe([t.card3, t.shipped].sort((x, y) => x - y).join(","));
  });

  it("id, name, phone, installments, traceable, deliveryStatus", async () => {
    expect(await both(`id=${t.card3}`)).toBe(`${t.card3}`);
    expect(await both(`id=${t.joana},${t.shipped}`)).toBe(`${t.joana},${t.shipped}`);
    expect(await both("name=joana%20d'arc")).toBe(`${t.joana}`);
    expect(await both("name=%25")).toBe("");
    expect(await both("phone=(21)%2099999-8888")).toBe(`${t.card3}`);
    expect(await both("installments=3")).toBe(`${t.card3}`);
    expect(await both("traceable=true")).toBe(`${t.shipped}`);
    expect(await both("traceable=0")).toBe(`${t.joana},${t.card3}`);
    expect(await both("deliveryStatus=in_transit,delivered")).toBe(`${t.shipped}`);
    // Another account's id is not listed.
    expect(await both(`id=${byMethod.pix[0]}`)).toBe("");
  });

  it("their values are checked like every other filter's", async () => {
    for (const [query, field] of [
      ["id=abc", "id"],
      ["id=0", "id"],
      ["installments=13", "installments"],
      ["installments=0x5", "installments"],
      ["installments=1e1", "installments"],
      ["installments=%2B5", "installments"],
      ["installments=5.0", "installments"],
      ["traceable=maybe", "traceable"],
      ["deliveryStatus=lost", "deliveryStatus"],
      ["paymentMethods=cash", "paymentMethods"],
    ] as const) {
      const res = await call("GET", `/v1/transactions?${query}`, { auth: b.secretKey });
      expect(res.status, `${query}: ${res.text}`).toBe(400);
      expect(res.body.errors.map((e: { field: string }) => e.field)).toEqual([field]);
    }
  });
});

it("the filters still filter (cash-outs by externalRef, payment links by status)", async () => {
  await getDb().update(cashOuts).set({ externalRef: "saque-x" }).where(eq(cashOuts.id, cashOutIds[0]));
  expect(ids(await ok("/api/v1/cashOut?externalRef=saque-x"))).toEqual([cashOutIds[0]]);
  expect((await ok("/api/v1/checkouts?status=paid")).data.pagination.total).toBe(0);
});
