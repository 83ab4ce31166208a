import QRCode from "qrcode";
import { withPublic } from "@/lib/http/handler";
import { findTransactionBySecureId, isSecureId, linkPaidByAnother } from "@/lib/services/checkouts/checkout-lookup";
import { isExpired } from "@/lib/services/checkouts/checkout-page";
import { notFound } from "@/lib/services/errors";
import { acceptsHtml, payerPage } from "../payer-page";

/**
 * GET /checkout/{secureId}/qr.png: the PIX QR code as a PNG, for "Salvar QR code" (to pay from
 * another device or later from the gallery). Only a PIX charge still waiting for payment, and not
 * expired, has one. A payer's browser asking for one that has none gets a page saying why (410 for
 * an expired PIX, else 404), an API client the JSON 404.
 */
export const GET = withPublic(async (req, ctx) => {
  const secureId = (ctx.params.secureId ?? "").toLowerCase();
  const t = isSecureId(secureId) ? await findTransactionBySecureId(secureId) : null;
  const html = acceptsHtml(req);
  const chargePath = t ? `/checkout/${secureId}` : null;
  if (!t || t.paymentMethod !== "pix" || !t.pixQrcode) {
    if (html) return payerPage(req, 404, (w) => w.notFound, chargePath);
    throw notFound("PIX QR code");
  }
  if (t.status === "pending" && isExpired(t, ctx.now)) {
    if (html) return payerPage(req, 410, (w) => ({ title: w.pix.expiredTitle, text: t.checkoutId !== null ? w.pix.expiredText : w.pix.expiredTextCharge }), chargePath);
    throw notFound("PIX QR code");
  }
  // Paid, refunded, cancelled; or a PIX of a payment link another charge has paid: not to be paid any more.
  if (t.status !== "pending" || (await linkPaidByAnother(t, ctx.now))) {
    if (html) return payerPage(req, 404, (w) => ({ title: w.pix.qrGoneTitle, text: w.pix.qrGoneText }), chargePath);
    throw notFound("PIX QR code");
  }
  const png = await QRCode.toBuffer(t.pixQrcode, { type: "png", margin: 4, width: 512, errorCorrectionLevel: "M" });
  return new Response(new Uint8Array(png), {
    status: 200,
    headers: {
      "content-type": "image/png",
      "content-disposition": `attachment; filename="pix-${t.id}.png"`,
      "cache-control": "private, max-age=300",
    },
  });
});
