import { withPublic } from "@/lib/http/handler";
import { findTransactionBySecureId, isSecureId, linkPaidByAnother } from "@/lib/services/checkouts/checkout-lookup";
import { ServiceError } from "@/lib/services/errors";
import { boletoPdfBySecureId } from "@/lib/services/transactions/boleto-pdf";
import { acceptsHtml, payerPage } from "../payer-page";

// Public: the payer opens the boleto from the link in the creation response or the webhook.
export const GET = withPublic(async (req, ctx) => {
  const secureId = (ctx.params.secureId ?? "").toLowerCase();
  // A boleto of a payment link another charge has paid must not be paid any more (a boleto cannot be
  // returned the way it came): the payer is sent to its page, which shows the order paid.
  const t = isSecureId(secureId) ? await findTransactionBySecureId(secureId) : null;
  if (t && (await linkPaidByAnother(t, new Date()))) {
    return new Response(null, { status: 303, headers: { location: `/checkout/${secureId}`, "cache-control": "no-store" } });
  }
  let slip: Awaited<ReturnType<typeof boletoPdfBySecureId>>;
  try {
    slip = await boletoPdfBySecureId(secureId);
  } catch (e) {
    // No such boleto (an old or mistyped link, or a charge paid another way): a payer's browser gets
    // a page in the payer's words, with the way to the charge's page when there is a charge.
    if (e instanceof ServiceError && e.code === "not_found" && acceptsHtml(req)) return payerPage(req, 404, (w) => w.notFound, t ? `/checkout/${secureId}` : null);
    throw e;
  }
  return new Response(new Uint8Array(slip.pdf), {
    status: 200,
    headers: {
      "content-type": "application/pdf",
      "content-disposition": `inline; filename="boleto-${slip.transactionId}.pdf"`,
      "cache-control": "private, max-age=300",
    },
  });
});
