/** The /v1 dialect's pure parts: which dialect a URL is, Accept negotiation, the family's request forms. */
import { describe, expect, it } from "vitest";
import { dialectOf, prefersJson } from "@/lib/http/dialect";
import { callerIp, UNKNOWN_IP, v1CardTokenBody, v1TransactionBody } from "@/lib/http/dialect-leniency";
import { ServiceError } from "@/lib/services/errors";

describe("dialectOf", () => {
  it("is v1 under /v1/ only", () => {
    expect(dialectOf("http://h/v1/transactions")).toBe("v1");
    expect(dialectOf(new URL("http://h/v1"))).toBe("v1");
    expect(dialectOf("http://h/api/v1/transactions")).toBe("api");
    expect(dialectOf("http://h/v10/transactions")).toBe("api");
  });
});

describe("prefersJson (card token as a JSON string)", () => {
  it("prefers JSON on a higher quality, or the same quality listed first", () => {
    expect(prefersJson("application/json")).toBe(true);
    expect(prefersJson("application/json, text/plain, */*")).toBe(true);
    expect(prefersJson("text/plain;q=0.5, application/json")).toBe(true);
    expect(prefersJson("application/*")).toBe(true);
  });
  it("keeps text for no header, */*, text first or JSON with a lower quality", () => {
    expect(prefersJson(null)).toBe(false);
    expect(prefersJson("*/*")).toBe(false);
    expect(prefersJson("text/plain, application/json")).toBe(false);
    expect(prefersJson("application/json;q=0.2, text/*")).toBe(false);
    expect(prefersJson("text/html")).toBe(false);
  });
});

describe("v1TransactionBody", () => {
  const card = { paymentMethod: "CREDIT_CARD", amount: 100, items: [{ title: "A", unitPrice: 100, quantity: 1 }] };

  it("records the caller's address for a card without ip, and 0.0.0.0 when none is known", () => {
    expect((v1TransactionBody(card, "198.51.100.1") as any).ip).toBe("198.51.100.1");
    expect((v1TransactionBody({ ...card, ip: "" }, null) as any).ip).toBe(UNKNOWN_IP);
    expect((v1TransactionBody({ ...card, ip: "203.0.113.5" }, "198.51.100.1") as any).ip).toBe("203.0.113.5");
    expect((v1TransactionBody({ ...card, paymentMethod: "pix" }, "198.51.100.1") as any).ip).toBeUndefined();
  });

  it("defaults items[].tangible to false and keeps a value sent", () => {
    const out = v1TransactionBody({ items: [{ title: "A" }, { title: "B", tangible: true }] }, null) as any;
    expect(out.items.map((i: any) => i.tangible)).toEqual([false, true]);
  });

  it("turns pix.expiresInSeconds into whole days, rounded up, and refuses a bad value naming the field", () => {
    expect((v1TransactionBody({ pix: { expiresInSeconds: 60 } }, null) as any).pix).toEqual({ expiresInDays: 1 });
    expect((v1TransactionBody({ pix: { expiresInSeconds: 86_401 } }, null) as any).pix).toEqual({ expiresInDays: 2 });
    expect((v1TransactionBody({ pix: { expiresInSeconds: 60, expiresInDays: 3 } }, null) as any).pix.expiresInDays).toBe(3);
    for (const bad of [0, -1, 1.5, "abc", 31 * 86_400]) {
      expect(() => v1TransactionBody({ pix: { expiresInSeconds: bad } }, null), String(bad)).toThrow(ServiceError);
    }
  });

  it("reads numeric strings and a bare document", () => {
    const out = v1TransactionBody(
      { amount: "1000", items: [{ unitPrice: "500", quantity: "2" }], customer: { document: "12.345.678/0001-95" } },
      null,
    ) as any;
    expect(out.amount).toBe(1000);
    expect(out.items[0]).toMatchObject({ unitPrice: 500, quantity: 2 });
    expect(out.customer.document).toEqual({ type: "cnpj", number: "12.345.678/0001-95" });
    expect((v1TransactionBody({ amount: "10.5" }, null) as any).amount).toBe("10.5"); // left for the validation
  });

  it("takes \"\" and spaces as absent for the optional text fields, and nothing else", () => {
    const out = v1TransactionBody(
      {
        paymentMethod: "pix",
        postbackUrl: "",
        returnUrl: " ",
        externalRef: "",
        ip: "",
        metadata: "",
        customer: { name: "Ana", phone: "", externalRef: "  ", email: "a@example.com" },
        items: [{ title: "A", externalRef: "" }],
        card: { hash: "" },
      },
      null,
    ) as any;
    for (const k of ["postbackUrl", "returnUrl", "externalRef", "ip"]) expect(out, k).not.toHaveProperty(k);
    expect(out.metadata).toBe(""); // a string sent: kept as sent
    expect(out.customer).toEqual({ name: "Ana", email: "a@example.com" });
    expect(out.items[0]).not.toHaveProperty("externalRef");
    expect(out.card).toEqual({});
    // Values are left for the validation, even bad ones.
    const kept = v1TransactionBody({ postbackUrl: "x", customer: { phone: "1" } }, null) as any;
    expect(kept).toMatchObject({ postbackUrl: "x", customer: { phone: "1" } });
  });

  it("reads items[].tangible 1/0 and \"true\"/\"false\" as booleans and leaves anything else for the validation", () => {
    const tangible = (v: unknown) => (v1TransactionBody({ items: [{ tangible: v }] }, null) as any).items[0].tangible;
    expect([1, 0, "true", "false", " TRUE ", "1", "0", ""].map(tangible)).toEqual([true, false, true, false, true, true, false, false]);
    expect(tangible(2)).toBe(2);
    expect(tangible("yes")).toBe("yes");
  });

  it("leaves what is not an object alone", () => {
    expect(v1TransactionBody([1], null)).toEqual([1]);
    expect(v1TransactionBody("x", null)).toBe("x");
  });
});

describe("v1CardTokenBody and callerIp", () => {
  it("maps expMonth/expYear, bare or wrapped in card, without overriding the contract's names", () => {
    expect(v1CardTokenBody({ expMonth: 1, expYear: 2030 })).toEqual({ expirationMonth: 1, expirationYear: 2030 });
    expect(v1CardTokenBody({ card: { expMonth: 1, expYear: 2030 } })).toEqual({ card: { expirationMonth: 1, expirationYear: 2030 } });
    expect(v1CardTokenBody({ expirationMonth: 2, expMonth: 1 })).toEqual({ expirationMonth: 2 });
  });

  it("reads the first X-Forwarded-For address, else X-Real-IP, only when it is an address", () => {
    expect(callerIp(new Headers({ "x-forwarded-for": "198.51.100.7, 10.0.0.1" }))).toBe("198.51.100.7");
    expect(callerIp(new Headers({ "x-forwarded-for": "::ffff:198.51.100.8" }))).toBe("198.51.100.8");
    expect(callerIp(new Headers({ "x-real-ip": "2001:db8::1" }))).toBe("2001:db8::1");
    expect(callerIp(new Headers({ "x-forwarded-for": "not-an-ip" }))).toBeNull();
    expect(callerIp(new Headers())).toBeNull();
  });
});
