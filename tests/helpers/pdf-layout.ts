/**
 * Where a PDF made by pdfkit draws its text and its boxes, to check a layout: the text runs as pdf.js
 * reads them (position, width, font size), and the rectangles of the page's content stream (pdfkit
 * writes `x y w h re` in its top-left coordinates, under a `1 0 0 -1 0 H cm` flip), both in points
 * from the page's top-left corner.
 */
import { inflateSync } from "node:zlib";
import { getDocument } from "pdfjs-dist/legacy/build/pdf.mjs";

export type TextRun = { str: string; x: number; top: number; bottom: number; width: number; size: number };
export type Box = { x: number; y: number; w: number; h: number };

/**
 * DejaVu Sans's ascent and descent (1901 and 483 per 2048 units): a line of text takes from
 * baseline - 0.928 x size to baseline + 0.236 x size, whatever glyphs it holds.
 */
const ASCENT = 1901 / 2048;
const DESCENT = 483 / 2048;

export async function pdfLayout(pdf: Buffer): Promise<{ pages: { text: TextRun[]; boxes: Box[] }[] }> {
  const doc = await getDocument({ data: new Uint8Array(pdf), isEvalSupported: false, disableFontFace: true, useSystemFonts: false }).promise;
  const streams = contentStreams(pdf);
  const pages: { text: TextRun[]; boxes: Box[] }[] = [];
  try {
    for (let n = 1; n <= doc.numPages; n++) {
      const page = await doc.getPage(n);
      const height = page.view[3];
      const content = await page.getTextContent();
      const text: TextRun[] = [];
      for (const item of content.items) {
        if (!("str" in item) || !item.str.trim()) continue;
        const size = Math.hypot(item.transform[2], item.transform[3]);
        const baseline = height - item.transform[5];
        text.push({ str: item.str, x: item.transform[4], top: baseline - ASCENT * size, bottom: baseline + DESCENT * size, width: item.width, size });
      }
      pages.push({ text, boxes: streams[n - 1] ? rectangles(streams[n - 1]) : [] });
    }
  } finally {
    await doc.destroy();
  }
  return { pages };
}

/** The decompressed content streams, in the order pdfkit writes the pages (one stream a page). */
function contentStreams(pdf: Buffer): string[] {
  const out: string[] = [];
  const raw = pdf.toString("latin1");
  const re = /<<([^]*?)>>\s*stream\r?\n/g;
  for (let m; (m = re.exec(raw)); ) {
    const start = m.index + m[0].length;
    const length = Number(/\/Length (\d+)/.exec(m[1])?.[1]);
    if (!Number.isFinite(length) || /\/Subtype|\/Length1|\/Type \/XObject/.test(m[1])) continue;
    const bytes = pdf.subarray(start, start + length);
    let body: string;
    try {
      body = (/\/FlateDecode/.test(m[1]) ? inflateSync(bytes) : bytes).toString("latin1");
    } catch {
      continue;
    }
    if (/\bBT\b/.test(body) && / re\b/.test(body)) out.push(body);
  }
  return out;
}

function rectangles(stream: string): Box[] {
  const boxes: Box[] = [];
  const num = String.raw`(-?\d+(?:\.\d+)?)`;
  const re = new RegExp(String.raw`${num} ${num} ${num} ${num} re\s+S\b`, "g");
  for (let m; (m = re.exec(stream)); ) boxes.push({ x: +m[1], y: +m[2], w: +m[3], h: +m[4] });
  return boxes;
}
