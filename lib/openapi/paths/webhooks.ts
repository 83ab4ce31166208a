/** Operations of the Webhooks tag: a transaction's notifications, redelivery and skip, and the PSP's callback. */
import { z } from "zod";
import { envelopeOf, RedeliverySchema, WebhookEventSchema } from "../components";
import type { ApiOperation } from "../types";
import { apiGroup, numericIdParams } from "./group";
import { TransactionIdParams } from "./transactions";
import { CashOutIdParams } from "./cash-outs";

export const EventIdParams = numericIdParams("eventId", "Notification id (the webhook-id header, the body's id)", "42");

/** A manual action on one notification (POST /api/v1/webhooks/{eventId}/<action>). */
function eventAction(a: { action: string; operationId: string; summary: string; description: string; answer: string; schema: z.ZodType }): Omit<ApiOperation, "tag"> {
  return {
    method: "post",
    path: `/api/v1/webhooks/{eventId}/${a.action}`,
    operationId: a.operationId,
    summary: a.summary,
    description: a.description,
    auth: "secretKey",
    pathParams: EventIdParams,
    responses: { 200: { description: a.answer, schema: a.schema } },
    errors: ["not_found", "unprocessable", "conflict"],
  };
}

export const WEBHOOKS = apiGroup({ name: "Webhooks", description: "Notifications sent to your postbackUrl: list, redeliver and skip." }, [
  {
    method: "get",
    path: "/api/v1/transactions/{id}/webhooks",
    operationId: "listTransactionWebhooks",
    summary: "Webhooks of a transaction",
    description: "Every notification of the transaction, oldest first, with each delivery attempt (status, duration, error).",
    auth: "secretKey",
    pathParams: TransactionIdParams,
    responses: {
      200: {
        description: "The notifications",
        schema: envelopeOf(z.array(WebhookEventSchema), { id: "WebhookEventListResponse", status: 200 }),
      },
    },
    errors: ["not_found"],
  },
  {
    method: "get",
    path: "/api/v1/cashOut/{id}/webhooks",
    operationId: "listCashOutWebhooks",
    summary: "Webhooks of a cash-out",
    description:
      "Every `cash_out` notification of the cash-out (pending, processing, completed or failed), oldest first, with each delivery attempt: where a stuck one is found to redeliver or skip.",
    auth: "secretKey",
    pathParams: CashOutIdParams,
    responses: {
      200: {
        description: "The notifications",
        schema: envelopeOf(z.array(WebhookEventSchema), { id: "CashOutWebhookEventListResponse", status: 200 }),
      },
    },
    errors: ["not_found"],
  },
  ...(["/api/v1/psp/api-pix/{token}/pix", "/api/v1/psp/api-pix/{token}"] as const).map(
    (path, i): Omit<ApiOperation, "tag"> => ({
      method: "post",
      path,
      operationId: i === 0 ? "receiveApiPixNotification" : "receiveApiPixNotificationBare",
      summary: i === 0 ? "API Pix PSP notification (called by your PSP)" : "API Pix PSP notification, bare URL",
      description:
        "Not for integrators: the URL Arara registers at your PSP (`PUT /webhook/{chave}` of the API Pix) when the account receives PIX through its own PSP. The PSP posts `{ pix: [...] }` here; the body only wakes a re-read of each end-to-end id at the PSP (`GET /pix/{e2eid}`, `GET /cob/{txid}`), nothing in it is trusted. An unknown token is a 404.",
      auth: "none",
      pathParams: z.object({ token: z.string().meta({ description: "The account's unguessable webhook token" }) }),
      responses: {
        200: {
          description: "Received: the Pix named were read back from the PSP",
          contentType: "application/json",
          text: "The envelope with `data: { received }`, the number of end-to-end ids read (for the PSP, which only looks at the status)",
        },
      },
      errors: ["not_found"],
    }),
  ),
  eventAction({
    action: "redeliver",
    operationId: "redeliverWebhook",
    summary: "Redeliver a webhook now",
    description:
      "Sends the notification again within the request, as a manual attempt (logged). A success marks it delivered; a failure changes nothing else. An event whose earlier event of the same transaction is still pending is refused (422) so order is kept; 409 while an automatic attempt is in flight.",
    answer: "The event with the new attempt",
    schema: envelopeOf(RedeliverySchema, { id: "WebhookRedeliveryResponse", status: 200, message: true }),
  }),
  eventAction({
    action: "skip",
    operationId: "skipWebhook",
    summary: "Skip (give up) a webhook",
    description:
      "Gives up a pending or failed notification: no more automatic attempts (state `abandoned`), and the later events of its transaction, which wait for it because delivery is in order, are released at once. Logged in the event's attempts as an entry of kind `skip`. Skipping an abandoned event again changes nothing; it can still be redelivered by hand. 422 for a delivered event or one without a URL; 409 while an attempt is in flight.",
    answer: "The event, abandoned",
    schema: envelopeOf(WebhookEventSchema, { id: "WebhookSkipResponse", status: 200, message: true }),
  }),
]);
