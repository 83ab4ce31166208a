import { readFileSync } from "node:fs";
import path from "node:path";
import PDFDocument from "pdfkit";
import * as fontkit from "fontkit";
import { and, eq } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { companies, transactions } from "@/lib/db/schema";
import { addressLines, type PostalAddress } from "@/lib/domain/address";
import { parseBancoDoBrasilFreeField } from "@/lib/domain/boleto/banco-do-brasil";
import { formatDigitableLine, parseBarcode } from "@/lib/domain/boleto/barcode";
import { brasiliaDay } from "@/lib/domain/time";
import { encodeInterleaved2of5 } from "@/lib/domain/boleto/interleaved-2of5";
import { formatDocument } from "@/lib/domain/documents";
import { formatBRL } from "@/lib/domain/money";
import { transliterateChar } from "@/lib/domain/text";
import { notFound } from "../errors";
import type { TransactionRow } from "./transaction-view";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const BANK_NAMES: Record<string, string> = { "001": "Banco do Brasil" };

/** The boleto of a transaction, by its public secureId (the payer opens it without credentials). */
export async function boletoPdfBySecureId(secureId: string): Promise<{ transactionId: number; pdf: Buffer }> {
  // A malformed id would make PostgreSQL fail the uuid cast: it is simply not found.
  if (!UUID.test(secureId)) throw notFound("Boleto");
  const rows = await getDb()
    .select({ t: transactions, merchant: { name: companies.name, document: companies.document, address: companies.address } })
    .from(transactions)
    .innerJoin(companies, eq(companies.id, transactions.companyId))
    .where(and(eq(transactions.secureId, secureId.toLowerCase()), eq(transactions.paymentMethod, "boleto")))
    .limit(1);
  const row = rows[0];
  if (!row || !row.t.boletoBarcode || !row.t.boletoDigitableLine || !row.t.boletoDueDate) throw notFound("Boleto");
  return { transactionId: row.t.id, pdf: await renderBoletoPdf(row.t, row.merchant) };
}

const brDate = (isoDay: string) => `${isoDay.slice(8, 10)}/${isoDay.slice(5, 7)}/${isoDay.slice(0, 4)}`;

// FEBRABAN: the barcode is about 103 mm long and 13 mm tall, wide bars 3 times the narrow ones.
// 44 digits in ITF are 405 narrow units, so a narrow bar of 0.254 mm (0.72 pt) gives 102.9 mm.
const NARROW_PT = 0.72;
const BARCODE_HEIGHT_PT = 13 * (72 / 25.4);

/**
 * The slip's font: DejaVu Sans (npm package dejavu-fonts-ttf; Bitstream Vera licence, free to embed),
 * which has Latin with every accent, full-width forms aside, Greek, Cyrillic, Armenian, Georgian,
 * Hebrew, Arabic and many symbols. pdfkit embeds the subset a slip uses. Read once per process from
 * the installed package (the app runs from the project's root: `next start`, the worker, the tests).
 */
type SlipFont = { regular: Buffer; bold: Buffer; glyphs: fontkit.Font };
let slipFont: SlipFont | undefined;
function loadSlipFont(): SlipFont {
  if (!slipFont) {
    const dir = path.join(process.cwd(), "node_modules", "dejavu-fonts-ttf", "ttf");
    const regular = readFileSync(path.join(dir, "DejaVuSans.ttf"));
    const bold = readFileSync(path.join(dir, "DejaVuSans-Bold.ttf"));
    slipFont = { regular, bold, glyphs: fontkit.create(regular) as fontkit.Font };
  }
  return slipFont;
}

/**
 * Text as the font can draw it: each character the font has a glyph for is kept as it is ("São",
 * "Магазин", "متجر"), any other is transliterated ("北京" -> "BeiJing", "😀" -> ":grinning:"), and
 * control characters are dropped. Never a box or a wrong glyph in place of a name.
 */
export function drawableText(text: string, font: Pick<fontkit.Font, "hasGlyphForCodePoint"> = loadSlipFont().glyphs): string {
  let out = "";
  for (const c of text) {
    const cp = c.codePointAt(0)!;
    if (/[\p{Cc}\p{Cf}]/u.test(c)) continue; // controls, joiners, direction marks
    if (font.hasGlyphForCodePoint(cp)) out += c;
    else {
      const folded = c.normalize("NFKC");
      const parts = [...folded].every((p) => font.hasGlyphForCodePoint(p.codePointAt(0)!)) ? folded : transliterateChar(c);
      out += [...parts].filter((p) => font.hasGlyphForCodePoint(p.codePointAt(0)!)).join("");
    }
  }
  return out.replace(/\s+/g, " ").trim();
}

export type SlipMerchant = { name: string; document: string; address?: PostalAddress | null };

/**
 * A ficha de compensação laid out as banks print it: the payer's receipt at the top, the slip with
 * the digitable line and the Interleaved 2 of 5 barcode of the 44 digits at the bottom. Names and
 * addresses are printed in an embedded Unicode font (see drawableText). Sandbox slips say so in
 * their header.
 */
export async function renderBoletoPdf(t: TransactionRow, merchant: SlipMerchant): Promise<Buffer> {
  const font = loadSlipFont();
  const barcode = t.boletoBarcode!;
  const line = formatDigitableLine(t.boletoDigitableLine!);
  const parsed = parseBarcode(barcode);
  const bank = parsed.bankCode;
  const bb = bank === "001" ? parseBancoDoBrasilFreeField(parsed.freeField) : null;
  const due = brDate(t.boletoDueDate!);
  const issued = brDate(brasiliaDay(t.createdAt));
  const amount = formatBRL(t.amount);
  const beneficiaryName = drawableText(merchant.name);
  // A party's line is its name then its document; a name too long for the box is cut, the document never.
  const beneficiary = { text: beneficiaryName, keep: ` - ${merchant.document.length === 11 ? "CPF" : "CNPJ"} ${formatDocument(merchant.document)}` };
  const beneficiaryAddress = addressLines(merchant.address).map((l) => drawableText(l)).join(" - ");
  const payerDoc = t.customer.document;
  const payer = { text: drawableText(t.customer.name), keep: ` - ${payerDoc.type.toUpperCase()} ${formatDocument(payerDoc.number)}` };
  const payerAddress = addressLines(t.shipping?.address).map((l) => drawableText(l));
  const ourNumber = bb?.ourNumber ?? t.acquirerRef ?? String(t.id);
  const beneficiaryCode = bb ? `Convênio ${bb.agreement}` : "-";
  const wallet = bb?.wallet ?? "-";
  const documentNumber = String(t.id);
  // Test-mode transactions are processed by the sandbox: their slips must never look payable.
  const sandbox = !t.livemode;

  const doc = new PDFDocument({
    size: "A4",
    margin: 36,
    info: {
      Title: `Boleto - transação ${t.id}`,
      Subject: line,
      Author: beneficiaryName,
      Creator: "Arara",
    },
  });
  doc.registerFont("Slip", font.regular);
  doc.registerFont("Slip-Bold", font.bold);
  const chunks: Buffer[] = [];
  doc.on("data", (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
  });

  const left = 36;
  const width = doc.page.width - 72;
  /**
   * Text that fits `w` on one line: at the largest size from `max` down to `min`, and at `min` cut
   * with an ellipsis. The `keep` part (a party's document number) is never cut: the rest before it
   * is. pdfkit wraps any text given a width (lineBreak: false only applies without one, and its
   * ellipsis only with a height), so each value is measured here and drawn without a width.
   */
  const fit = (text: string, fontName: string, w: number, max: number, min: number, keep = ""): { text: string; size: number } => {
    doc.font(fontName).fontSize(max);
    const natural = doc.widthOfString(text + keep);
    if (natural <= w) return { text: text + keep, size: max };
    const size = Math.max(min, Math.floor((max * w * 10) / natural) / 10);
    doc.fontSize(size);
    if (doc.widthOfString(text + keep) <= w) return { text: text + keep, size };
    const parts = Array.from(new Intl.Segmenter("pt-BR", { granularity: "grapheme" }).segment(text), (g) => g.segment);
    const cut = (n: number) => `${parts.slice(0, n).join("").trimEnd()}…${keep}`;
    if (doc.widthOfString(cut(0)) > w) return keep ? fit(text + keep, fontName, w, max, min) : { text: "", size };
    let lo = 0;
    let hi = parts.length - 1;
    while (lo < hi) {
      const mid = Math.ceil((lo + hi) / 2);
      if (doc.widthOfString(cut(mid)) <= w) lo = mid;
      else hi = mid - 1;
    }
    return { text: cut(lo), size };
  };
  type Style = { bold?: boolean; align?: "left" | "right"; size?: number; min?: number; keep?: string; color?: string };
  /** One line of text in a box's inner width (3 pt padding each side), never wrapped. */
  const line1 = (text: string, x: number, y: number, w: number, opts: Style = {}) => {
    const fontName = opts.bold ? "Slip-Bold" : "Slip";
    const max = opts.size ?? 8.5;
    const fitted = fit(text, fontName, w - 6, max, opts.min ?? Math.min(max, 6.5), opts.keep);
    doc.font(fontName).fontSize(fitted.size).fillColor(opts.color ?? "#000");
    const drawnX = opts.align === "right" ? x + w - 3 - doc.widthOfString(fitted.text) : x + 3;
    doc.text(fitted.text, drawnX, y, { lineBreak: false });
  };
  const label = (text: string, x: number, y: number, w: number) => line1(text, x, y + 2, w, { size: 5.5, min: 4.5, color: "#444" });
  const value = (text: string, x: number, y: number, w: number, opts: Style = {}) => line1(text, x, y, w, opts);
  const cell = (x: number, y: number, w: number, h: number, caption: string, text: string, opts: Style = {}) => {
    doc.lineWidth(0.5).rect(x, y, w, h).stroke();
    label(caption, x, y, w);
    value(text, x, y + 10, w, opts);
  };
  /**
   * A box with a caption and several lines, each on its own 10 pt step (a party's name and
   * document, then its address): the box must be 14 + 10 x lines tall.
   */
  const block = (x: number, y: number, w: number, h: number, caption: string, lines: { text: string; keep?: string }[]) => {
    doc.lineWidth(0.5).rect(x, y, w, h).stroke();
    label(caption, x, y, w);
    lines.forEach((l, i) => value(l.text, x, y + 10 + i * 10, w, i === 0 ? { size: 8.5, min: 6.5, keep: l.keep } : { size: 7.5, min: 6 }));
  };
  /** The largest size up to `max` at which the text fits the width on one line. */
  const fittedSize = (text: string, fontName: string, w: number, max: number) => {
    doc.font(fontName).fontSize(max);
    const natural = doc.widthOfString(text);
    return natural <= w ? max : Math.max(5, Math.floor((max * w * 10) / natural) / 10);
  };
  const bankHeader = (y: number) => {
    doc.font("Slip-Bold").fontSize(12).fillColor("#000").text(BANK_NAMES[bank] ?? `Banco ${bank}`, left, y + 6, { width: 150, lineBreak: false });
    doc.moveTo(left + 150, y).lineTo(left + 150, y + 24).moveTo(left + 200, y).lineTo(left + 200, y + 24).lineWidth(1).stroke();
    doc.font("Slip-Bold").fontSize(14).text(`${bank}-9`, left + 150, y + 5, { width: 50, align: "center", lineBreak: false });
    const size = fittedSize(line, "Slip-Bold", width - 208, 11);
    doc.font("Slip-Bold").fontSize(size).text(line, left + 205, y + 12 - size / 2, { width: width - 205, align: "right", lineBreak: false });
    doc.moveTo(left, y + 24).lineTo(left + width, y + 24).lineWidth(1).stroke();
  };
  const noAddress = "Endereço não informado";

  let y = 36;
  if (sandbox) {
    const warning = "SANDBOX - boleto de teste, sem valor: não pague. Simule o pagamento pela API ou pela página de checkout.";
    doc.rect(left, y, width, 20).fill("#fff3cd");
    doc
      .font("Slip-Bold")
      .fontSize(fittedSize(warning, "Slip-Bold", width - 14, 8.5))
      .fillColor("#7a5a00")
      .text(warning, left + 6, y + 6, { width: width - 12, lineBreak: false });
    y += 28;
  }

  // Payer's receipt (recibo do pagador).
  doc.font("Slip-Bold").fontSize(10).fillColor("#000").text("Recibo do Pagador", left, y);
  y += 16;
  bankHeader(y);
  y += 28;
  const r1 = width * 0.6;
  const r2 = width * 0.2;
  block(left, y, r1, 34, "Beneficiário", [beneficiary, { text: beneficiaryAddress || noAddress }]);
  cell(left + r1, y, r2, 34, "Agência/Código do Beneficiário", beneficiaryCode);
  cell(left + r1 + r2, y, r2, 34, "Vencimento", due, { bold: true, align: "right" });
  y += 34;
  // The payer's address on its two lines, as on the slip below (one line cut most addresses short).
  block(left, y, r1, 44, "Pagador", [payer, ...(payerAddress.length ? payerAddress : [noAddress]).map((text) => ({ text }))]);
  cell(left + r1, y, r2, 44, "Nosso número", ourNumber);
  cell(left + r1 + r2, y, r2, 44, "Valor do documento", amount, { bold: true, align: "right" });
  y += 44;
  const r3 = r1 / 3;
  cell(left, y, r3, 24, "Nº do documento", documentNumber);
  cell(left + r3, y, r3, 24, "Espécie", "R$");
  cell(left + 2 * r3, y, r3, 24, "Quantidade", "");
  cell(left + r1, y, r2, 24, "Carteira", wallet);
  cell(left + r1 + r2, y, r2, 24, "(=) Valor cobrado", "", { align: "right" });
  y += 40;

  doc
    .moveTo(left, y)
    .lineTo(left + width, y)
    .dash(3, { space: 3 })
    .lineWidth(0.5)
    .stroke()
    .undash();
  doc.font("Slip").fontSize(5.5).fillColor("#444").text("Corte na linha pontilhada", left, y + 2, { width, align: "right" });
  y += 20;

  // The slip (ficha de compensação).
  bankHeader(y);
  y += 28;
  const w1 = width * 0.75;
  const w2 = width - w1;
  cell(left, y, w1, 24, "Local de pagamento", sandbox ? "Boleto de teste (sandbox): não pagável em bancos" : "Pagável em qualquer banco até o vencimento");
  cell(left + w1, y, w2, 24, "Vencimento", due, { bold: true, align: "right" });
  y += 24;
  block(left, y, w1, 34, "Beneficiário", [beneficiary, { text: beneficiaryAddress || noAddress }]);
  cell(left + w1, y, w2, 34, "Agência/Código do Beneficiário", beneficiaryCode, { align: "right" });
  y += 34;
  const q = w1 / 5;
  cell(left, y, q, 24, "Data do documento", issued);
  cell(left + q, y, q, 24, "Nº do documento", documentNumber);
  cell(left + 2 * q, y, q, 24, "Espécie doc.", "DM");
  cell(left + 3 * q, y, q, 24, "Aceite", "N");
  cell(left + 4 * q, y, q, 24, "Data processamento", issued);
  cell(left + w1, y, w2, 24, "Nosso número", ourNumber, { align: "right" });
  y += 24;
  cell(left, y, q, 24, "Uso do banco", "");
  cell(left + q, y, q, 24, "Carteira", wallet);
  cell(left + 2 * q, y, q, 24, "Espécie", "R$");
  cell(left + 3 * q, y, q, 24, "Quantidade", "");
  cell(left + 4 * q, y, q, 24, "(x) Valor", "");
  cell(left + w1, y, w2, 24, "(=) Valor do documento", amount, { bold: true, align: "right" });
  y += 24;
  doc.lineWidth(0.5).rect(left, y, w1, 60).stroke();
  label("Instruções (texto de responsabilidade do beneficiário)", left, y, w1);
  doc
    .font("Slip")
    .fontSize(8)
    .fillColor("#000")
    .text(`Não receber após o vencimento. Pagamento referente à transação ${t.id}.`, left + 3, y + 14, { width: w1 - 6 });
  for (const [i, caption] of ["(-) Desconto / Abatimento", "(+) Mora / Multa", "(=) Valor cobrado"].entries()) {
    cell(left + w1, y + i * 20, w2, 20, caption, "");
  }
  y += 60;
  block(left, y, width, 44, "Pagador", [payer, ...(payerAddress.length ? payerAddress : [noAddress]).map((text) => ({ text }))]);
  y += 52;

  const itf = encodeInterleaved2of5(barcode, { wide: 3, quietZone: 0 });
  doc.fillColor("#000");
  for (const bar of itf.bars) doc.rect(left + bar.x * NARROW_PT, y, bar.w * NARROW_PT, BARCODE_HEIGHT_PT).fill();
  doc
    .font("Slip")
    .fontSize(5.5)
    .fillColor("#444")
    .text("Autenticação mecânica - Ficha de Compensação", left + itf.width * NARROW_PT + 10, y, { width: width - itf.width * NARROW_PT - 10, align: "right" });

  doc.end();
  return done;
}
