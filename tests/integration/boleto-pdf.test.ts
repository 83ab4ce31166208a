/**
 * The boleto PDF prints every name readably: in an embedded Unicode font when it has the glyphs, as a
 * transliteration where it has not (never boxes or another character's glyph), and it carries the
 * fields a bank slip has, with both parties' addresses. The text is read back with pdf.js.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { createAccount, findAccountById } from "@/lib/services/accounts/accounts";
import { boletoPdfBySecureId, drawableText } from "@/lib/services/transactions/boleto-pdf";
import { updateCompanySettings } from "@/lib/services/accounts/update-company-settings";
import { call } from "../helpers/app";
import { randomCpf } from "../helpers/accounts";
import { baseBody } from "../helpers/cash-in";
import { pdfText } from "../helpers/pdf-text";
import { pdfLayout, type Box, type TextRun } from "../helpers/pdf-layout";

async function merchant(name: string) {
  return createAccount({ name, document: randomCpf(), email: `${Math.random().toString(36).slice(2)}@example.com` });
}

async function slipFor(account: { secretKey: string }, payerName: string, shipping?: unknown): Promise<string> {
  const body = baseBody({ paymentMethod: "boleto", customer: { ...baseBody().customer, name: payerName }, ...(shipping ? { shipping } : {}) });
  const res = await call("POST", "/api/v1/transactions", { auth: account.secretKey, body });
  expect(res.status, res.text).toBe(201);
  const { pdf } = await boletoPdfBySecureId(res.body.data.secureId);
  expect(pdf.subarray(0, 5).toString()).toBe("%PDF-");
  return pdfText(pdf);
}

// [script, name, what a reader finds in the PDF: the name itself, or its transliteration]
const NAMES: [string, string, string[]][] = [
  ["CJK (no glyphs: transliterated)", "北京商店", ["BeiJingShangDian"]],
  ["Korean (transliterated)", "서울상점", ["SeoUlSangJeom"]],
  ["full-width Latin (its letters)", "Ｌｏｊａ Ｃｅｎｔｒａｌ", ["Loja Central"]],
  ["full-width Latin and CJK", "ＡＢＣ商店", ["ABCShangDian"]],
  ["emoji the font has, and one it has not", "Loja 😀🛒", ["Loja 😀:shopping_cart:"]],
  ["emoji only", "🍕🍔", [":pizza::hamburger:"]],
  // (Words without the lam-alef ligature: readers copy that one glyph's two letters in reverse.)
  ["Arabic", "متجر السعادة", ["متجر", "السعادة"]],
  ["Hebrew", "חנות הספרים", ["חנות", "הספרים"]],
  ["Cyrillic", "Магазин Ромашка", ["Магазин Ромашка"]],
  ["Greek", "Κατάστημα Ήλιος", ["Κατάστημα Ήλιος"]],
  ["Devanagari (transliterated)", "दुकान", ["dukan"]],
  ["accented Latin", "José Ñandú Çağrı Łódź Ærø", ["José Ñandú Çağrı Łódź Ærø"]],
];

describe("names on the boleto PDF", () => {
  it.each(NAMES)("%s: %j is readable as beneficiary and as payer", async (_script, name, readable) => {
    const account = await merchant(name);
    const text = await slipFor(account, name);
    for (const r of readable) {
      // Twice each: the payer's receipt and the slip.
      expect(text.split("Beneficiário").slice(1).filter((part) => part.includes(r)).length, `beneficiary ${r} in\n${text}`).toBeGreaterThanOrEqual(2);
      expect(text.split("Pagador").slice(1).filter((part) => part.includes(r)).length, `payer ${r} in\n${text}`).toBeGreaterThanOrEqual(2);
    }
    // No replacement characters, no private-use or control code points in what a reader copies.
    expect(text).not.toMatch(/[\ufffd\ue000-\uf8ff\u0000-\u0008]/);
  });

  it("keeps what the font draws and transliterates only what it has no glyph for", () => {
    expect(drawableText("São Paulo Ærø Магазин")).toBe("São Paulo Ærø Магазин");
    expect(drawableText("Loja 北京")).toBe("Loja BeiJing");
    expect(drawableText("a\u200bb\u202ec\u0007")).toBe("abc");
  });
});

describe("the fields of a bank slip", () => {
  let text: string;
  beforeAll(async () => {
    const account = await merchant("Padaria Pão de Mel");
    const company = (await findAccountById(account.companyId))!;
    await updateCompanySettings(
      { account: company },
      {
        name: "Padaria Pão de Mel",
        email: "contato@paodemel.com.br",
        city: "São Paulo",
        pixKey: "contato@paodemel.com.br",
        address: { street: "Av. Paulista", streetNumber: "1000", complement: "Conj. 12", neighborhood: "Bela Vista", city: "São Paulo", state: "sp", zipCode: "01310100" },
      },
    );
    text = await slipFor(account, "Maria Silva", {
      fee: 0,
      address: { street: "Rua das Laranjeiras", streetNumber: "45", complement: "apto 301", neighborhood: "Laranjeiras", city: "Rio de Janeiro", state: "RJ", zipCode: "22240-003" },
    });
  });

  it.each(["Agência/Código do Beneficiário", "Carteira", "Espécie doc.", "Espécie", "Quantidade", "Nosso número", "Nº do documento", "Aceite", "Data processamento", "Uso do banco", "(x) Valor", "Local de pagamento", "Vencimento"])(
    "has the field %j",
    (field) => {
      expect(text).toContain(field);
    },
  );

  it("fills beneficiary code, wallet, currency and our number from the bank's free field", () => {
    expect(text).toContain("Convênio 1234567");
    expect(text).toMatch(/Carteira\s+17/);
    expect(text).toMatch(/Espécie\s+R\$/);
    expect(text).toMatch(/Nosso número\s+1234567\d{10}/);
  });

  it("prints the merchant's address (from the settings) and the payer's (from the shipping address)", () => {
    expect(text).toContain("Av. Paulista, 1000 - Conj. 12");
    expect(text).toContain("Bela Vista - São Paulo/SP - CEP 01310-100");
    expect(text).toContain("Rua das Laranjeiras, 45 - apto 301");
    expect(text).toContain("Laranjeiras - Rio de Janeiro/RJ - CEP 22240-003");
  });

  it("says so when a party has no address", async () => {
    const account = await merchant("Loja Sem Endereço");
    const slip = await slipFor(account, "João Sem Endereço");
    expect(slip.match(/Endereço não informado/g)?.length).toBeGreaterThanOrEqual(3);
  });
});

describe("long names and addresses on the boleto PDF", () => {
  const LONG_ADDRESS = {
    street: "Avenida Presidente Juscelino Kubitschek",
    streetNumber: "1909",
    complement: "Torre Sul, 14º andar, conjunto 142",
    neighborhood: "Vila Nova Conceição",
    city: "São Paulo",
    state: "SP",
    zipCode: "04543-011",
  };
  const CASES: [string, string, Record<string, string>][] = [
    ["a long name and address", "Maria Aparecida da Conceição dos Santos Oliveira", LONG_ADDRESS],
    [
      "a 96-character name and a long complement",
      "Maria Aparecida da Conceição dos Santos Oliveira de Albuquerque Cavalcanti Pereira Bragança Lima",
      { ...LONG_ADDRESS, complement: "Torre Sul, 14º andar, conjunto 142, entrada pela Rua Funchal, portaria 3, falar com a recepção" },
    ],
    [
      "every field at its longest",
      "Wolfeschlegelsteinhausenbergerdorff ".repeat(6).slice(0, 200),
      {
        street: "Rua ".padEnd(200, "x"),
        streetNumber: "1".repeat(20),
        complement: "Bloco ".padEnd(200, "y"),
        neighborhood: "Bairro ".padEnd(200, "z"),
        city: "Cidade ".padEnd(200, "w"),
        state: "SP",
        zipCode: "04543011",
      },
    ],
  ];

  /** The smallest stroked box holding the point. */
  const boxAt = (boxes: Box[], x: number, y: number) =>
    boxes.filter((b) => x >= b.x - 0.01 && x <= b.x + b.w && y >= b.y && y <= b.y + b.h).sort((a, b) => a.w * a.h - b.w * b.h)[0];
  const overlap = (a: TextRun, b: TextRun) =>
    a.x < b.x + b.width - 0.2 && b.x < a.x + a.width - 0.2 && a.top < b.bottom - 0.2 && b.top < a.bottom - 0.2;

  it.each(CASES)("%s: every line stays in its box, on one line, and no two lines overlap", async (_case, name, address) => {
    const account = await merchant(name.slice(0, 120));
    const body = baseBody({ paymentMethod: "boleto", customer: { ...baseBody().customer, name }, shipping: { fee: 0, address } });
    const res = await call("POST", "/api/v1/transactions", { auth: account.secretKey, body });
    expect(res.status, res.text).toBe(201);
    const { pdf } = await boletoPdfBySecureId(res.body.data.secureId);
    if (process.env.BOLETO_PDF_OUT) (await import("node:fs")).writeFileSync(`${process.env.BOLETO_PDF_OUT}-${CASES.findIndex((c) => c[0] === _case)}.pdf`, pdf);
    const { pages } = await pdfLayout(pdf);
    expect(pages).toHaveLength(1);
    const { text, boxes } = pages[0];
    expect(boxes.length).toBeGreaterThan(20);
    // The payer's document is printed whole (twice), however long the name before it.
    expect(text.filter((t) => t.str.includes("CPF 111.444.777-35")).length, JSON.stringify(text.map((t) => t.str))).toBe(2);
    let inBoxes = 0;
    for (const t of text) {
      const box = boxAt(boxes, t.x + 0.5, (t.top + t.bottom) / 2);
      if (!box) continue;
      inBoxes++;
      const where = `${JSON.stringify(t)} in ${JSON.stringify(box)}`;
      expect(t.x, where).toBeGreaterThanOrEqual(box.x);
      expect(t.x + t.width, where).toBeLessThanOrEqual(box.x + box.w);
      expect(t.top, where).toBeGreaterThanOrEqual(box.y);
      expect(t.bottom, where).toBeLessThanOrEqual(box.y + box.h);
    }
    expect(inBoxes).toBeGreaterThan(40);
    for (const [i, a] of text.entries()) {
      for (const b of text.slice(i + 1)) expect(overlap(a, b), `${JSON.stringify(a)} overlaps ${JSON.stringify(b)}`).toBe(false);
    }
    // Still readable: a value shrinks to 6 pt at the least (captions are 5.5 pt), then is cut.
    for (const t of text) expect(t.size, JSON.stringify(t)).toBeGreaterThanOrEqual(5.5);
    for (const t of text.filter((t) => t.size > 5.5)) expect(t.size, JSON.stringify(t)).toBeGreaterThanOrEqual(6);
  });
});

describe("the merchant's address in the dashboard settings", () => {
  const base = { name: "Loja Endereço", email: "end@example.com", city: "Recife", pixKey: "end@example.com" };

  it("is optional, stored normalised, kept when not sent and removed when emptied", async () => {
    const a = await merchant("Loja Endereço");
    const ctx = { account: (await findAccountById(a.companyId))! };
    expect((await updateCompanySettings(ctx, base)).address).toBeNull();
    const saved = await updateCompanySettings(ctx, { ...base, address: { street: " Rua do Bom Jesus ", streetNumber: "125", state: "pe", zipCode: "50.030-170" } });
    expect(saved.address).toEqual({ street: "Rua do Bom Jesus", streetNumber: "125", complement: null, neighborhood: null, city: null, state: "PE", zipCode: "50030170" });
    expect((await updateCompanySettings(ctx, base)).address).toEqual(saved.address);
    const emptied = await updateCompanySettings(ctx, { ...base, address: { street: "", streetNumber: "", complement: "", neighborhood: "", city: "", state: "", zipCode: "" } });
    expect(emptied.address).toBeNull();
  });

  it("refuses a CEP that is not 8 digits and a state that is not a UF, with every bad field named", async () => {
    const a = await merchant("Loja Endereço Ruim");
    const ctx = { account: (await findAccountById(a.companyId))! };
    const err = await updateCompanySettings(ctx, { ...base, pixKey: "111.444.777-30", address: { zipCode: "1234", state: "XX", street: "x".repeat(201) } }).catch((e) => e);
    expect(err.code).toBe("validation_error");
    expect(err.errors.map((e: { field: string }) => e.field).sort()).toEqual(["address.state", "address.street", "address.zipCode", "pixKey"]);
    expect((await findAccountById(a.companyId))!.address).toBeNull();
  });
});
