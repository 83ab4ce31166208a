import { describe, expect, it } from "vitest";
import { asciiFold, stripAccents } from "@/lib/domain/text";

describe("asciiFold: compatibility normalisation first, then accents, then other scripts", () => {
  it.each([
    // Accents and letters with no decomposition.
    ["São Paulo", "Sao Paulo"],
    ["Ação, Pão & Açúcar", "Acao, Pao & Acucar"],
    ["Straße Ærø", "Strasse AEro"],
    ["Łódź Œuvre", "Lodz OEuvre"],
    // Ligatures, full-width and other compatibility forms keep their letters.
    ["ﬁnance ＡＢＣ", "finance ABC"],
    ["ﬂor ﬀ ﬃ", "flor ff ffi"],
    ["Ｔｏｋｙｏ　Ｓｈｏｐ", "Tokyo Shop"],
    ["Ｃａｆé", "Cafe"],
    ["①② ㎏", "12 kg"],
    ["ǅemal", "Dzemal"],
    ["ℌello", "Hello"],
    // Symbols and emoji go; spaces collapse.
    ["  Café ☕ Bar ", "Cafe Bar"],
    ["Café\u00a0Bar\tLtda", "Cafe Bar Ltda"],
    ["1️⃣ Loja 🛒", "1 Loja"],
    ["😀🛒", ""],
    // Other scripts are transliterated, not dropped.
    ["北京商店", "BeiJingShangDian"],
    ["Магазин", "Magazin"],
    ["Κατάστημα", "Katastima"],
    ["दुकान", "dukan"],
    ["Loja 東京", "Loja DongJing"],
  ])("%j -> %j", (input, folded) => {
    expect(asciiFold(input)).toBe(folded);
  });

  it("gives plain printable ASCII for any input", () => {
    const samples = ["ﬁ", "Ａ", "é", "😀", "\u0000\u001f\u007f", "العربية", "עברית", "한국어", "ไทย", "𝓐𝓑𝓒", "\u200b\u200d"];
    for (const s of samples) expect(asciiFold(s)).toMatch(/^[\x20-\x7e]*$/);
    expect(asciiFold("𝓐𝓑𝓒")).toBe("ABC");
  });

  it("stripAccents keeps other scripts as they are", () => {
    expect(stripAccents("ﬁnance Ａ São")).toBe("finance A Sao");
    expect(stripAccents("北京 दुकान 한국")).toBe("北京 दुकान 한국");
  });
});
