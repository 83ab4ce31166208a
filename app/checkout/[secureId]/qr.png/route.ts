import QRCode from "qrcode";
import { withPublic } from "@/lib/http/handler";
import { findTransactionBySecureId, isSecureId, linkPaidByAnother } from "@/lib/services/checkouts/checkout-lookup";
import { notFound } from "@/lib/services/errors";

/**
 * GET /checkout/{secureId}/qr.png: the PIX QR code as a PNG, for "Salvar QR code" (to pay from
 * another device or later from the gallery). Only a PIX charge still waiting for payment has one.
 */
export const GET = withPublic(async (_req, ctx) => {
  const secureId = ctx.params.secureId ?? "";
  const t = isSecureId(secureId) ? await findTransactionBySecureId(secureId.toLowerCase()) : null;
  if (!t || t.paymentMethod !== "pix" || !t.pixQrcode || t.status !== "pending") throw notFound("PIX QR code");
  // A PIX of a payment link another charge has paid must not be paid any more.
  if (await linkPaidByAnother(t, new Date())) throw notFound("PIX QR code");
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
