import PDFDocument from "pdfkit";
import { and, eq } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { companies, transactions } from "@/lib/db/schema";
import { formatDigitableLine, parseBarcode } from "@/lib/domain/boleto/barcode";
import { brasiliaDay } from "@/lib/domain/boleto/due-date";
import { encodeInterleaved2of5 } from "@/lib/domain/boleto/interleaved-2of5";
import { formatBRL } from "@/lib/domain/money";
import { notFound } from "./errors";
import type { TransactionRow } from "./transaction-view";
import { formatDocument } from "@/lib/domain/documents";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const BANK_NAMES: Record<string, string> = { "001": "Banco do Brasil" };

/** The boleto of a transaction, by its public secureId (the payer opens it without credentials). */
export async function boletoPdfBySecureId(secureId: string): Promise<{ transactionId: number; pdf: Buffer }> {
  // A malformed id would make PostgreSQL fail the uuid cast: it is simply not found.
  if (!UUID.test(secureId)) throw notFound("Boleto");
  const rows = await getDb()
    .select({ t: transactions, merchant: { name: companies.name, document: companies.document } })
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

type Merchant = { name: string; document: string };

/**
 * A ficha de compensação laid out as banks print it: the payer's receipt at the top, the slip with
 * the digitable line and the Interleaved 2 of 5 barcode of the 44 digits at the bottom. Sandbox
 * slips say so in their header.
 */
export async function renderBoletoPdf(t: TransactionRow, merchant: Merchant): Promise<Buffer> {
  const barcode = t.boletoBarcode!;
  const line = formatDigitableLine(t.boletoDigitableLine!);
  const bank = parseBarcode(barcode).bankCode;
  const due = brDate(t.boletoDueDate!);
  const issued = brDate(brasiliaDay(t.createdAt));
  const amount = formatBRL(t.amount);
  const beneficiary = `${merchant.name} - ${merchant.document.length === 11 ? "CPF" : "CNPJ"} ${formatDocument(merchant.document)}`;
  const payerDoc = t.customer.document;
  const payer = `${t.customer.name} - ${payerDoc.type.toUpperCase()} ${formatDocument(payerDoc.number)}`;
  const ourNumber = t.acquirerRef ?? String(t.id);
  // Test-mode transactions are processed by the sandbox: their slips must never look payable.
  const sandbox = !t.livemode;

  const doc = new PDFDocument({
    size: "A4",
    margin: 36,
    info: {
      Title: `Boleto - transação ${t.id}`,
      Subject: line,
      Author: merchant.name,
      Creator: "Arara",
    },
  });
  const chunks: Buffer[] = [];
  doc.on("data", (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
  });

  const left = 36;
  const width = doc.page.width - 72;
  const cell = (x: number, y: number, w: number, h: number, label: string, value: string, opts: { bold?: boolean; align?: "left" | "right" } = {}) => {
    doc.lineWidth(0.5).rect(x, y, w, h).stroke();
    doc.font("Helvetica").fontSize(6).fillColor("#444").text(label, x + 3, y + 2, { width: w - 6, lineBreak: false });
    doc
      .font(opts.bold ? "Helvetica-Bold" : "Helvetica")
      .fontSize(9)
      .fillColor("#000")
      .text(value, x + 3, y + 11, { width: w - 6, align: opts.align ?? "left", lineBreak: false, ellipsis: true });
  };
  const bankHeader = (y: number) => {
    doc.font("Helvetica-Bold").fontSize(12).fillColor("#000").text(BANK_NAMES[bank] ?? `Banco ${bank}`, left, y + 6, { width: 150, lineBreak: false });
    doc.moveTo(left + 150, y).lineTo(left + 150, y + 24).moveTo(left + 200, y).lineTo(left + 200, y + 24).lineWidth(1).stroke();
    doc.font("Helvetica-Bold").fontSize(14).text(`${bank}-9`, left + 150, y + 5, { width: 50, align: "center", lineBreak: false });
    doc.font("Helvetica-Bold").fontSize(11).text(line, left + 205, y + 7, { width: width - 205, align: "right", lineBreak: false });
    doc.moveTo(left, y + 24).lineTo(left + width, y + 24).lineWidth(1).stroke();
  };

  let y = 36;
  if (sandbox) {
    doc.rect(left, y, width, 20).fill("#fff3cd");
    doc
      .font("Helvetica-Bold")
      .fontSize(9)
      .fillColor("#7a5a00")
      .text("SANDBOX - boleto de teste, sem valor: não pague. Simule o pagamento pela API ou pela página de checkout.", left + 6, y + 6, {
        width: width - 12,
        lineBreak: false,
      });
    y += 28;
  }

  // Payer's receipt (recibo do pagador).
  doc.font("Helvetica-Bold").fontSize(10).fillColor("#000").text("Recibo do Pagador", left, y);
  y += 16;
  bankHeader(y);
  y += 28;
  cell(left, y, width * 0.6, 24, "Beneficiário", beneficiary);
  cell(left + width * 0.6, y, width * 0.2, 24, "Vencimento", due, { bold: true });
  cell(left + width * 0.8, y, width * 0.2, 24, "Valor do documento", amount, { bold: true, align: "right" });
  y += 24;
  cell(left, y, width * 0.6, 24, "Pagador", payer);
  cell(left + width * 0.6, y, width * 0.2, 24, "Nosso número", ourNumber);
  cell(left + width * 0.8, y, width * 0.2, 24, "Nº do documento", String(t.id));
  y += 40;

  doc
    .moveTo(left, y)
    .lineTo(left + width, y)
    .dash(3, { space: 3 })
    .lineWidth(0.5)
    .stroke()
    .undash();
  doc.font("Helvetica").fontSize(6).fillColor("#444").text("Corte na linha pontilhada", left, y + 2, { width, align: "right" });
  y += 20;

  // The slip (ficha de compensação).
  bankHeader(y);
  y += 28;
  const w1 = width * 0.75;
  const w2 = width - w1;
  cell(left, y, w1, 24, "Local de pagamento", sandbox ? "Boleto de teste (sandbox): não pagável em bancos" : "Pagável em qualquer banco até o vencimento");
  cell(left + w1, y, w2, 24, "Vencimento", due, { bold: true, align: "right" });
  y += 24;
  cell(left, y, w1, 24, "Beneficiário", beneficiary);
  cell(left + w1, y, w2, 24, "Nosso número", ourNumber, { align: "right" });
  y += 24;
  const q = w1 / 5;
  cell(left, y, q, 24, "Data do documento", issued);
  cell(left + q, y, q, 24, "Nº do documento", String(t.id));
  cell(left + 2 * q, y, q, 24, "Espécie doc.", "DM");
  cell(left + 3 * q, y, q, 24, "Aceite", "N");
  cell(left + 4 * q, y, q, 24, "Data processamento", issued);
  cell(left + w1, y, w2, 24, "(=) Valor do documento", amount, { bold: true, align: "right" });
  y += 24;
  doc.lineWidth(0.5).rect(left, y, w1, 60).stroke();
  doc.font("Helvetica").fontSize(6).fillColor("#444").text("Instruções (texto de responsabilidade do beneficiário)", left + 3, y + 2);
  doc
    .font("Helvetica")
    .fontSize(8)
    .fillColor("#000")
    .text(`Não receber após o vencimento. Pagamento referente à transação ${t.id}.`, left + 3, y + 14, { width: w1 - 6 });
  for (const [i, label] of ["(-) Desconto / Abatimento", "(+) Mora / Multa", "(=) Valor cobrado"].entries()) {
    cell(left + w1, y + i * 20, w2, 20, label, "");
  }
  y += 60;
  doc.lineWidth(0.5).rect(left, y, width, 34).stroke();
  doc.font("Helvetica").fontSize(6).fillColor("#444").text("Pagador", left + 3, y + 2);
  doc.font("Helvetica").fontSize(9).fillColor("#000").text(payer, left + 3, y + 12, { width: width - 6, lineBreak: false });
  y += 42;

  const itf = encodeInterleaved2of5(barcode, { wide: 3, quietZone: 0 });
  doc.fillColor("#000");
  for (const bar of itf.bars) doc.rect(left + bar.x * NARROW_PT, y, bar.w * NARROW_PT, BARCODE_HEIGHT_PT).fill();
  doc
    .font("Helvetica")
    .fontSize(6)
    .fillColor("#444")
    .text("Autenticação mecânica - Ficha de Compensação", left + itf.width * NARROW_PT + 10, y, { width: width - itf.width * NARROW_PT - 10, align: "right" });

  doc.end();
  return done;
}
