import { describe, expect, it } from "vitest";
import { parsePix } from "pix-utils";
import { buildStaticBrCode, FALLBACK_MERCHANT_CITY, FALLBACK_MERCHANT_NAME, parseBrCode } from "@/lib/domain/pix/brcode";

const KEY = "123e4567-e12b-12d1-a456-426655440000";

/** Field 59 and 60 as they are written in the payload, and the payload checked by two parsers. */
function build(merchantName: string, merchantCity: string) {
  const code = buildStaticBrCode({ key: KEY, merchantName, merchantCity, amount: 1234, txid: "ABC123" });
  expect(code).toMatch(/^[\x20-\x7e]+$/);
  const ours = parseBrCode(code);
  expect(ours.crcValid).toBe(true);
  const theirs = parsePix(code) as any;
  expect(theirs.error, JSON.stringify(theirs)).toBeUndefined();
  expect(theirs).toMatchObject({ type: "STATIC", pixKey: KEY, transactionAmount: 12.34, merchantName: ours.merchantName, merchantCity: ours.merchantCity });
  expect(ours.merchantName.length).toBeGreaterThan(0);
  expect(ours.merchantName.length).toBeLessThanOrEqual(25);
  expect(ours.merchantCity.length).toBeGreaterThan(0);
  expect(ours.merchantCity.length).toBeLessThanOrEqual(15);
  expect(ours.merchantName).toMatch(/[A-Za-z0-9]/);
  expect(ours.merchantCity).toMatch(/[A-Za-z0-9]/);
  return { name: ours.merchantName, city: ours.merchantCity };
}

describe("a BR Code for a merchant named in any script is valid, with a readable ASCII name and city", () => {
  it.each([
    // [script, name, city, field 59, field 60]
    ["CJK", "北京商店", "北京", "BeiJingShangDian", "BeiJing"],
    ["CJK, short", "商店", "東京", "ShangDian", "DongJing"],
    ["Japanese kana", "カフェ・トウキョウ", "とうきょう", "kafuetoukiyou", "toukiyou"],
    ["Korean", "서울상점", "서울", "SeoUlSangJeom", "SeoUl"],
    ["Arabic", "متجر الأمل", "دبي", "mtjr l'ml", "dby"],
    ["Cyrillic", "Магазин Ромашка", "Москва", "Magazin Romashka", "Moskva"],
    ["Greek", "Κατάστημα Ήλιος", "Αθήνα", "Katastima Ilios", "Athina"],
    ["Hebrew", "חנות הספרים", "תל אביב", "hnvt hsfrym", "tl 'vyv"],
    ["Devanagari", "दुकान", "मुंबई", "dukan", "mumbi"],
    ["Thai", "ร้านกาแฟ", "กรุงเทพ", "rankaaef", "krungethph"],
    ["emoji only", "😀🛒✨", "🌴🌴", FALLBACK_MERCHANT_NAME, FALLBACK_MERCHANT_CITY],
    ["symbols only", "★★★ ♥", "—", FALLBACK_MERCHANT_NAME, FALLBACK_MERCHANT_CITY],
    ["empty after folding", "\u200b\u200d\ufe0f", "\u0301", FALLBACK_MERCHANT_NAME, FALLBACK_MERCHANT_CITY],
    ["blank", "   ", " ", FALLBACK_MERCHANT_NAME, FALLBACK_MERCHANT_CITY],
    ["ligatures and full-width", "ﬁnance ＡＢＣ", "Ｒｅｃｉｆｅ", "finance ABC", "Recife"],
    ["accented Latin", "Padaria São João da Esquina", "São José dos Campos", "Padaria Sao Joao da Esqui", "Sao Jose dos Ca"],
    ["mixed", "Loja 東京 ☕", "Rio 🌴", "Loja DongJing", "Rio"],
  ])("%s: %j in %j", (_script, name, city, field59, field60) => {
    // Transliterations are any-ascii's (a table per code point), so they are stable.
    const got = build(name, city);
    expect(got).toEqual({ name: field59, city: field60 });
  });

  it("cuts long transliterations to the field lengths", () => {
    const got = build("北京商店".repeat(10), "Санкт-Петербург Ленинградская");
    expect(got.name).toHaveLength(25);
    expect(got.city.length).toBeLessThanOrEqual(15);
  });
});
