import { withPublic } from "@/lib/http/handler";
import { findTransactionBySecureId, isSecureId, linkPaidByAnother } from "@/lib/services/checkouts/checkout-lookup";
import { boletoPdfBySecureId } from "@/lib/services/transactions/boleto-pdf";

// Public: the payer opens the boleto from the link in the creation response or the webhook.
export const GET = withPublic(async (_req, ctx) => {
  const secureId = (ctx.params.secureId ?? "").toLowerCase();
  // A boleto of a payment link another charge has paid must not be paid any more (a boleto cannot be
  // returned the way it came): the payer is sent to its page, which shows the order paid.
  const t = isSecureId(secureId) ? await findTransactionBySecureId(secureId) : null;
  if (t && (await linkPaidByAnother(t, new Date()))) {
    return new Response(null, { status: 303, headers: { location: `/checkout/${secureId}`, "cache-control": "no-store" } });
  }
  const { transactionId, pdf } = await boletoPdfBySecureId(secureId);
  return new Response(new Uint8Array(pdf), {
    status: 200,
    headers: {
      "content-type": "application/pdf",
      "content-disposition": `inline; filename="boleto-${transactionId}.pdf"`,
      "cache-control": "private, max-age=300",
    },
  });
});
