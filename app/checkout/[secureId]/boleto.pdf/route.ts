import { withPublic } from "@/lib/http/handler";
import { boletoPdfBySecureId } from "@/lib/services/transactions/boleto-pdf";

// Public: the payer opens the boleto from the link in the creation response or the webhook.
export const GET = withPublic(async (_req, ctx) => {
  const { transactionId, pdf } = await boletoPdfBySecureId(ctx.params.secureId ?? "");
  return new Response(new Uint8Array(pdf), {
    status: 200,
    headers: {
      "content-type": "application/pdf",
      "content-disposition": `inline; filename="boleto-${transactionId}.pdf"`,
      "cache-control": "private, max-age=300",
    },
  });
});
