/**
 * Request bodies that used to cost a 500 or the process's memory: JSON nested deeper than 32 levels is
 * a 400 before anything walks it, and a body over 1 MB is a 413 read no further than the limit, with
 * or without a Content-Length.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { call } from "../helpers/app";
import { createTestAccount } from "../helpers/accounts";
import { expectWellFormed } from "../helpers/fuzz";
import { pixBody, rowCounts } from "../helpers/flows";
import { CARD } from "../helpers/cash-in";
import { jsonDepthExceeds, MAX_BODY_BYTES, MAX_JSON_DEPTH } from "@/lib/http/body";
import type { CreatedAccount } from "@/lib/services/accounts/accounts";
import { POST as createTransaction } from "@/app/api/v1/transactions/route";
import { POST as tokenizeRoute } from "@/app/api/v1/card-token/route";

let a: CreatedAccount;

beforeAll(async () => {
  a = await createTestAccount("Loja Corpos");
});

/** About 7 KB of `{"a":` ... `}` nested `levels` deep. */
const nested = (levels: number, inner = "1") => '{"a":'.repeat(levels) + inner + "}".repeat(levels);
const nestedArrays = (levels: number) => "[".repeat(levels) + "]".repeat(levels);

describe("deeply nested JSON is a 400 before any walk", () => {
  it("7 KB of nesting on card tokenization (no key needed) is a 400 validation_error on body", async () => {
    const raw = nested(1200, JSON.stringify(CARD));
    expect(raw.length).toBeGreaterThan(7000);
    const res = await call("POST", `/api/v1/card-token?publicKey=${a.publicKey}`, { rawBody: raw, headers: { "content-type": "application/json" } });
    expectWellFormed(res, "deep card-token");
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([{ field: "body", message: expect.stringContaining(String(MAX_JSON_DEPTH)) }]);
  });

  it("deep nesting inside metadata, with a NUL escape that would start the text walk, is a 400 and stores nothing", async () => {
    const body = JSON.stringify({ ...pixBody(), metadata: "" }).replace('"metadata":""', `"metadata":${nested(5000, '"x\\u0000"')}`);
    const before = await rowCounts();
    const res = await call("POST", "/api/v1/transactions", { auth: a.secretKey, rawBody: body, headers: { "content-type": "application/json" } });
    expectWellFormed(res, "deep metadata");
    expect(res.status).toBe(400);
    expect(await rowCounts()).toEqual(before);
  });

  it("deep arrays on the checkout's pay route are a 400", async () => {
    const res = await call("POST", "/api/v1/checkouts", { auth: a.secretKey, body: { amount: 1000 } });
    const pay = await call("POST", `/checkout/${res.body.data.secureId}/pay`, {
      rawBody: nestedArrays(3000),
      headers: { "content-type": "application/json" },
    });
    expectWellFormed(pay, "deep pay");
    expect(pay.status).toBe(400);
  });

  it("counts brackets only outside strings, and allows exactly the bound", () => {
    expect(jsonDepthExceeds(nested(MAX_JSON_DEPTH))).toBe(false);
    expect(jsonDepthExceeds(nested(MAX_JSON_DEPTH + 1))).toBe(true);
    expect(jsonDepthExceeds(JSON.stringify({ note: "[".repeat(500) + '\\"{{{' }))).toBe(false);
    expect(jsonDepthExceeds(`{"a":"\\\\"}${"[".repeat(40)}`)).toBe(true);
  });
});

describe("bodies over 1 MB are a 413, read no further than the limit", () => {
  it("a declared Content-Length over 1 MB is refused before the body is read", async () => {
    let pulled = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(c) {
        pulled += 64 * 1024;
        c.enqueue(new Uint8Array(64 * 1024).fill(0x20));
        if (pulled > 50 * 1024 * 1024) c.close();
      },
    });
    const req = new Request("http://localhost:3000/api/v1/transactions", {
      method: "POST",
      headers: { authorization: `Basic ${Buffer.from(`${a.secretKey}:`).toString("base64")}`, "content-type": "application/json", "content-length": String(50 * 1024 * 1024) },
      body: stream,
      duplex: "half",
    } as RequestInit);
    const res = await createTransaction(req, { params: Promise.resolve({}) });
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ success: false, status: 413, code: "payload_too_large" });
    // The stream may have been primed with a chunk or two, never the 50 MB.
    expect(pulled).toBeLessThan(MAX_BODY_BYTES);
  });

  it("a chunked body (no Content-Length) of 50 MB is abandoned just past 1 MB", async () => {
    let pulled = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(c) {
        pulled += 64 * 1024;
        c.enqueue(new Uint8Array(64 * 1024).fill(0x20));
        if (pulled >= 50 * 1024 * 1024) c.close();
      },
    });
    const req = new Request(`http://localhost:3000/api/v1/card-token?publicKey=${a.publicKey}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: stream,
      duplex: "half",
    } as RequestInit);
    expect(req.headers.get("content-length")).toBeNull();
    const res = await tokenizeRoute(req, { params: Promise.resolve({}) });
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ success: false, status: 413, code: "payload_too_large" });
    expect(pulled).toBeLessThan(MAX_BODY_BYTES + 4 * 64 * 1024);
  });

  it("a body of exactly the limit is read (and then judged on its content)", async () => {
    const raw = JSON.stringify({ ...pixBody(), metadata: { pad: "" } });
    const padded = raw.replace('"pad":""', `"pad":"${"x".repeat(MAX_BODY_BYTES - raw.length)}"`);
    expect(Buffer.byteLength(padded)).toBe(MAX_BODY_BYTES);
    const res = await call("POST", "/api/v1/transactions", { auth: a.secretKey, rawBody: padded, headers: { "content-type": "application/json" } });
    expectWellFormed(res, "1 MB body");
    expect(res.status).not.toBe(413);
    const over = await call("POST", "/api/v1/transactions", { auth: a.secretKey, rawBody: padded + " ", headers: { "content-type": "application/json" } });
    expect(over.status).toBe(413);
    expect(over.body.code).toBe("payload_too_large");
  });
});
