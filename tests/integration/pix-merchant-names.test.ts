/**
 * A PIX charge for a merchant whose name or city has no Latin letters is created like any other:
 * the BR Code carries a transliterated name (or a safe default) that every parser accepts.
 */
import { describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { parsePix } from "pix-utils";
import { getDb } from "@/lib/db/client";
import { companies } from "@/lib/db/schema";
import { FALLBACK_MERCHANT_CITY, FALLBACK_MERCHANT_NAME, parseBrCode } from "@/lib/domain/pix/brcode";
import { createAccount } from "@/lib/services/accounts/accounts";
import { call } from "../helpers/app";
import { randomCpf } from "../helpers/accounts";
import { baseBody } from "../helpers/cash-in";

describe("PIX charges for merchants named in any script", () => {
  it.each([
    // [script, name, city, field 59, field 60]
    ["CJK", "商店", "北京", "ShangDian", "BeiJing"],
    ["Arabic", "متجر", "دبي", "mtjr", "dby"],
    ["Cyrillic", "Магазин", "Москва", "Magazin", "Moskva"],
    ["Greek", "Κατάστημα", "Αθήνα", "Katastima", "Athina"],
    ["Hebrew", "חנות", "חיפה", "hnvt", "hyfh"],
    ["Devanagari", "दुकान", "मुंबई", "dukan", "mumbi"],
    ["emoji only", "😀🛒", "🌴", FALLBACK_MERCHANT_NAME, FALLBACK_MERCHANT_CITY],
    ["ligatures and full-width", "ﬁnance ＡＢＣ", "Ｒｅｃｉｆｅ", "finance ABC", "Recife"],
  ])("%s: %j in %j gets a 201 and a valid BR Code", async (_script, name, city, field59, field60) => {
    const a = await createAccount({ name, document: randomCpf(), email: `${Math.random().toString(36).slice(2)}@example.com` });
    await getDb().update(companies).set({ city }).where(eq(companies.id, a.companyId));

    const res = await call("POST", "/api/v1/transactions", { auth: a.secretKey, body: baseBody() });
    expect(res.status, res.text).toBe(201);
    const qrcode: string = res.body.data.pix.qrcode;
    expect(qrcode).toMatch(/^[\x20-\x7e]+$/);
    const ours = parseBrCode(qrcode);
    expect(ours.crcValid).toBe(true);
    expect({ name: ours.merchantName, city: ours.merchantCity }).toEqual({ name: field59, city: field60 });
    const theirs = parsePix(qrcode) as any;
    expect(theirs.error, JSON.stringify(theirs)).toBeUndefined();
    expect(theirs).toMatchObject({ type: "STATIC", merchantName: field59, merchantCity: field60, transactionAmount: 15 });
  });
});
