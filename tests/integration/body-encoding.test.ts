/**
 * A JSON body must be UTF-8 (RFC 8259 §8.1). A body with bytes that are not UTF-8 (a Latin-1 `ã`, 0xE3)
 * used to be decoded with U+FFFD in their place and stored that way (a customer named "Jo\uFFFDo", 201).
 * It is now a 400 `validation_error` on `body`, on every route that reads JSON (the API, /v1, card
 * tokenization, the checkout page's POSTs), whatever charset the Content-Type names, and nothing is stored.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { call } from "../helpers/app";
import { createTestAccount } from "../helpers/accounts";
import { pixBody, rowCounts } from "../helpers/flows";
import { CARD } from "../helpers/cash-in";
import type { CreatedAccount } from "@/lib/services/accounts/accounts";
import { POST as createTransaction } from "@/app/api/v1/transactions/route";
import { POST as tokenizeRoute } from "@/app/api/v1/card-token/route";
import { POST as v1Post } from "@/app/v1/[...path]/route";
import { POST as checkoutPay } from "@/app/checkout/[secureId]/pay/route";
import { POST as pspWebhookPix } from "@/app/api/v1/psp/api-pix/[token]/pix/route";

let a: CreatedAccount;

beforeAll(async () => {
  a = await createTestAccount("Loja Codificação");
});

/** The JSON of `value` with every "João" written in Latin-1 (0xE3 for ã), which is not UTF-8. */
function latin1Json(value: unknown): Buffer {
  return Buffer.from(JSON.stringify(value), "latin1");
}

function request(url: string, body: Uint8Array, headers: Record<string, string> = {}): Request {
  return new Request(`http://localhost:3000${url}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: new Uint8Array(body),
  });
}

const auth = () => ({ authorization: `Basic ${Buffer.from(`${a.secretKey}:`).toString("base64")}` });
const args = (params: Record<string, string | string[]> = {}) => ({ params: Promise.resolve(params) });

async function expectNotUtf8(res: Response) {
  const body = await res.json();
  expect(res.status, JSON.stringify(body)).toBe(400);
  expect(body).toMatchObject({ success: false, status: 400, code: "validation_error" });
  expect(body.message).toMatch(/UTF-8/);
  expect(body.errors).toEqual([{ field: "body", message: expect.stringMatching(/UTF-8/) }]);
  expect(res.headers.get("x-request-id")).toBeTruthy();
}

const pixWithName = (name: string) => {
  const b = pixBody();
  return { ...b, customer: { ...b.customer, name } };
};

describe("a body that is not UTF-8 is a 400, never stored corrupted", () => {
  it("POST /api/v1/transactions with a Latin-1 ã: 400 on body, nothing created", async () => {
    const raw = latin1Json(pixWithName("João Latin"));
    expect(raw.includes(0xe3)).toBe(true);
    const before = await rowCounts();
    await expectNotUtf8(await createTransaction(request("/api/v1/transactions", raw, auth()), args()));
    expect(await rowCounts()).toEqual(before);
  });

  it("the same with Content-Type: application/json; charset=iso-8859-1: still a 400 (JSON is UTF-8)", async () => {
    const raw = latin1Json(pixWithName("João Declarado"));
    const before = await rowCounts();
    const res = await createTransaction(request("/api/v1/transactions", raw, { ...auth(), "content-type": "application/json; charset=iso-8859-1" }), args());
    await expectNotUtf8(res);
    expect(await rowCounts()).toEqual(before);
  });

  it("POST /v1/transactions (the family's dialect) with a Latin-1 ã: the same 400 error body", async () => {
    const raw = latin1Json(pixWithName("João Família"));
    const before = await rowCounts();
    await expectNotUtf8(await v1Post(request("/v1/transactions", raw, auth()), args({ path: ["transactions"] })));
    expect(await rowCounts()).toEqual(before);
  });

  it("card tokenization (public key) with a Latin-1 holder name: 400 on body", async () => {
    const raw = latin1Json({ ...CARD, holderName: "JOÃO DA SILVA" });
    await expectNotUtf8(await tokenizeRoute(request(`/api/v1/card-token?publicKey=${a.publicKey}`, raw), args()));
    await expectNotUtf8(await v1Post(request(`/v1/card-token?publicKey=${a.publicKey}`, raw), args({ path: ["card-token"] })));
  });

  it("the checkout page's pay POST with a Latin-1 byte: 400 on body", async () => {
    const link = await call("POST", "/api/v1/checkouts", { auth: a.secretKey, body: { amount: 5000, description: "Link" } });
    expect(link.status).toBe(201);
    const secureId = link.body.data.secureId as string;
    const raw = latin1Json({ paymentMethod: "pix", customer: { name: "João Pagador", email: "joao@example.com", document: "11144477735" } });
    await expectNotUtf8(await checkoutPay(request(`/checkout/${secureId}/pay`, raw, { "sec-fetch-site": "same-origin" }), args({ secureId })));
  });

  it("a bad byte split across two chunks of a streamed body is found too", async () => {
    const raw = latin1Json(pixWithName("João Em Pedaços"));
    const at = raw.indexOf(0xe3);
    const stream = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(raw.subarray(0, at + 1));
        c.enqueue(raw.subarray(at + 1));
        c.close();
      },
    });
    const req = new Request("http://localhost:3000/api/v1/transactions", {
      method: "POST",
      headers: { ...auth(), "content-type": "application/json" },
      body: stream,
      duplex: "half",
    } as RequestInit);
    await expectNotUtf8(await createTransaction(req, args()));
  });

  it("the same names in UTF-8 are stored as sent (a multi-byte character split across chunks included)", async () => {
    const utf8 = Buffer.from(JSON.stringify(pixWithName("João Ção 🇧🇷")), "utf8");
    const at = utf8.indexOf(0xc3);
    const stream = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(utf8.subarray(0, at + 1));
        c.enqueue(utf8.subarray(at + 1));
        c.close();
      },
    });
    const req = new Request("http://localhost:3000/api/v1/transactions", {
      method: "POST",
      headers: { ...auth(), "content-type": "application/json; charset=utf-8" },
      body: stream,
      duplex: "half",
    } as RequestInit);
    const res = await createTransaction(req, args());
    const body = await res.json();
    expect(res.status, JSON.stringify(body)).toBe(201);
    expect(body.data.customer.name).toBe("João Ção 🇧🇷");
    const v1 = await v1Post(request("/v1/transactions", Buffer.from(JSON.stringify(pixWithName("Maria Conceição")), "utf8"), auth()), args({ path: ["transactions"] }));
    const v1Body = await v1.json();
    expect(v1.status, JSON.stringify(v1Body)).toBe(201);
    expect(v1Body.customer.name).toBe("Maria Conceição");
  });
});

describe("the PSP's webhook reads its body as every route does", () => {
  const token = "x".repeat(43);
  it("bytes that are not UTF-8: 400 on body, before anything is looked up", async () => {
    await expectNotUtf8(await pspWebhookPix(request(`/api/v1/psp/api-pix/${token}/pix`, latin1Json({ pix: [{ endToEndId: "E1", infoPagador: "João" }] })), args({ token })));
  });

  it("over 1 MB: 413 payload_too_large in the one error body, with its request id", async () => {
    const big = Buffer.from(JSON.stringify({ pix: [], pad: "a".repeat(1_100_000) }), "utf8");
    const res = await pspWebhookPix(request(`/api/v1/psp/api-pix/${token}/pix`, big), args({ token }));
    const body = await res.json();
    expect(res.status, JSON.stringify(body)).toBe(413);
    expect(body).toMatchObject({ success: false, status: 413, code: "payload_too_large" });
    expect(res.headers.get("x-request-id")).toBeTruthy();
    expect(body.requestId).toBe(res.headers.get("x-request-id"));
  });

  it("UTF-8 JSON under the limit reaches the token's lookup (an unknown token is a 404)", async () => {
    const res = await pspWebhookPix(request(`/api/v1/psp/api-pix/${token}/pix`, Buffer.from(JSON.stringify({ pix: [] }), "utf8")), args({ token }));
    expect(res.status).toBe(404);
  });
});
