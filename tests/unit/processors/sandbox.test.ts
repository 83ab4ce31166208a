import { describe, expect, it } from "vitest";
import { parseBrCode } from "@/lib/domain/pix/brcode";
import { txidFor } from "@/lib/domain/pix/end2end";
import { parseBarcode, validateBarcode, validateDigitableLine, digitableLineToBarcode } from "@/lib/domain/boleto/barcode";
import { dueDateFromFactor } from "@/lib/domain/boleto/factor";
import { luhnValid } from "@/lib/domain/card/luhn";
import { detectBrand } from "@/lib/domain/card/brand";
import { validateCard } from "@/lib/domain/card/validate";
import { SANDBOX_TEST_CARDS, sandboxProcessor } from "@/lib/processors/sandbox";
import { getProcessor, processorFor } from "@/lib/processors/registry";
import type { CardData } from "@/lib/processors/types";

const NOW = new Date("2026-05-15T12:00:00Z");
const card = (number: string, over: Partial<CardData> = {}): CardData => ({
  number,
  holderName: "MARIA SILVA",
  expirationMonth: "12",
  expirationYear: "2030",
  cvv: "123",
  brand: detectBrand(number)!,
  ...over,
});
const authorize = (c: CardData) =>
  sandboxProcessor.card.authorize({ card: c, amount: 1000, installments: 1, reference: "r", merchant: { id: 1, name: "Loja" }, ip: "1.2.3.4", now: NOW });

describe("sandbox test cards", () => {
  it("every documented card passes tokenization's checks and has the documented brand", () => {
    for (const c of SANDBOX_TEST_CARDS) {
      expect(luhnValid(c.number), c.number).toBe(true);
      expect(detectBrand(c.number)).toBe(c.brand);
      expect(validateCard({ number: c.number, holderName: "X", expirationMonth: "12", expirationYear: "2030", cvv: "123" }, NOW).ok).toBe(true);
    }
  });

  it.each(SANDBOX_TEST_CARDS.map((c) => [c.number, c.outcome] as const))("%s -> %s", async (number, outcome) => {
    const r = await authorize(card(number));
    if (outcome === "approved") {
      expect(r.approved).toBe(true);
      expect(r.authorizationCode).toMatch(/^\d{6}$/);
    } else {
      expect(r).toEqual({ approved: false, reason: outcome, authorizationCode: null });
    }
  });

  it("any other Luhn-valid card is approved (Amex, Elo, Hipercard)", async () => {
    for (const n of ["378282246310005", "5067766783888311", "6062825624254001", "2223003122003222"]) {
      expect((await authorize(card(n))).approved, n).toBe(true);
    }
  });

  it("a card past its expiry at charge time is refused as expired_card", async () => {
    expect(await authorize(card("4111111111111111", { expirationMonth: "04", expirationYear: "2026" }))).toMatchObject({
      approved: false,
      reason: "expired_card",
    });
    // Good through the last day of its month.
    expect((await authorize(card("4111111111111111", { expirationMonth: "05", expirationYear: "2026" }))).approved).toBe(true);
  });
});

describe("sandbox PIX", () => {
  it("emits a static BR Code with the amount, the merchant and the transaction's txid", async () => {
    const secureId = "9d36b84f-c70b-478f-b95c-12729b90ca25";
    const charge = await sandboxProcessor.pix.createCharge({
      transactionId: 1234,
      secureId,
      amount: 12345,
      merchant: { name: "Padaria São João da Esquina Ltda", city: "São José dos Campos", pixKey: "11.222.333/0001-81" },
      expiresInDays: 2,
      now: NOW,
    });
    const p = parseBrCode(charge.qrcode);
    expect(p.crcValid).toBe(true);
    expect(p.amount).toBe(12345);
    expect(p.key).toBe("11222333000181");
    expect(p.txid).toBe(txidFor(1234, secureId));
    expect(charge.txid).toBe(p.txid);
    expect(p.merchantName).toBe("Padaria Sao Joao da Esqui");
    expect(p.merchantCity).toBe("Sao Jose dos Ca");
    expect(charge.expiresAt.toISOString()).toBe("2026-05-17T12:00:00.000Z");
  });
});

describe("sandbox boleto", () => {
  it("issues a valid bank-001 boleto for the amount, due today in Brasília plus the days", async () => {
    const b = await sandboxProcessor.boleto.issue({
      transactionId: 1234,
      amount: 12345,
      expiresInDays: 3,
      payer: { name: "Maria", document: "11144477735" },
      merchant: { name: "Loja", document: "11222333000181" },
      now: new Date("2026-05-15T01:00:00Z"), // still the 14th in Brasília
    });
    expect(validateBarcode(b.barcode)).toBe(true);
    expect(validateDigitableLine(b.digitableLine)).toBe(true);
    expect(digitableLineToBarcode(b.digitableLine)).toBe(b.barcode);
    const parsed = parseBarcode(b.barcode);
    expect(parsed.bankCode).toBe("001");
    expect(parsed.amount).toBe(12345);
    expect(parsed.freeField).toBe("0000001234567000000123417");
    expect(b.dueDate).toBe("2026-05-17");
    expect(dueDateFromFactor(parsed.factor, NOW)!.toISOString().slice(0, 10)).toBe("2026-05-17");
    expect(b.expiresAt.toISOString()).toBe("2026-05-18T02:59:59.999Z");
  });

  it("two transactions never share a barcode", async () => {
    const issue = (transactionId: number) =>
      sandboxProcessor.boleto.issue({ transactionId, amount: 1000, expiresInDays: 2, payer: { name: "M", document: "11144477735" }, merchant: { name: "L", document: "11222333000181" }, now: NOW });
    expect((await issue(1000)).barcode).not.toBe((await issue(1001)).barcode);
  });
});

describe("processor registry", () => {
  it("routes test-mode accounts to the sandbox and refuses live mode without a real acquirer", () => {
    expect(processorFor({ livemode: false }).name).toBe("sandbox");
    expect(() => processorFor({ livemode: true })).toThrow(/real acquirer/);
    expect(() => getProcessor("nope")).toThrow(/No payment processor/);
  });
});
