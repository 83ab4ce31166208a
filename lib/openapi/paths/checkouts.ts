/** Operations of the Checkouts tag: payment links. */
import { CreateCheckoutInput, ListCheckoutsQuery } from "@/lib/schemas/checkouts";
import { CheckoutListSchema, CheckoutSchema, envelopeOf } from "../components";
import { apiGroup, numericIdParams, PAGE_PARAM_DOCS, LIST_QUERY_RULES } from "./group";

export const CheckoutIdParams = numericIdParams("id", "Numeric payment link id", "500");

export const CHECKOUTS = apiGroup({ name: "Checkouts", description: "Payment links: a hosted page where the payer chooses the method." }, [
  {
    method: "post",
    path: "/api/v1/checkouts",
    operationId: "createCheckout",
    summary: "Create a payment link",
    description:
      "A hosted page (`secureUrl`) where the payer chooses among `methods` and pays. Each payment attempt becomes a transaction with the link's postbackUrl. A link is paid once: the first of its transactions to be paid is the link's payment (`transactionId`), and its other pending transactions can no longer be paid. A payment that still arrives for one of them (a PIX already sent cannot be refused) is recorded and refunded in full at once, with no fee: that transaction sends `paid` then `refunded`. `expiresAt` is the instant the link stops taking payments: a bare date (`2030-01-01`) means 00:00 UTC of that day, so the link takes no payment on that day (unlike a list's `to`, where a bare date includes the whole day); to accept payments through a day, send the end of the day with its offset (`2030-01-01T23:59:59-03:00`) or the next day.",
    auth: "secretKey",
    idempotent: true,
    body: {
      schema: CreateCheckoutInput,
      example: { items: [{ title: "Curso online", unitPrice: 19900, quantity: 1 }], methods: ["pix", "credit_card"], expiresInDays: 7, externalRef: "link-9" },
      examples: { amountOnly: { amount: 5000, description: "Doação" } },
    },
    responses: {
      201: { description: "The payment link", schema: envelopeOf(CheckoutSchema, { id: "CheckoutCreatedResponse", status: 201, message: true }) },
    },
  },
  {
    method: "get",
    path: "/api/v1/checkouts",
    operationId: "listCheckouts",
    summary: "List payment links",
    description:
      "Newest first (creation time, then id). Paged as the transaction list: by `page` and `limit`, or by `cursor` (keyset, recommended): `cursor=` (empty) for the first page, then each page's `pagination.nextCursor` until it is null." +
      LIST_QUERY_RULES,
    auth: "secretKey",
    query: ListCheckoutsQuery,
    paramDocs: { ...PAGE_PARAM_DOCS, externalRef: "Your externalRef, exact" },
    responses: { 200: { description: "A page of payment links", schema: envelopeOf(CheckoutListSchema, { id: "CheckoutListResponse", status: 200 }) } },
  },
  {
    method: "get",
    path: "/api/v1/checkouts/{id}",
    operationId: "getCheckout",
    summary: "Read a payment link",
    auth: "secretKey",
    pathParams: CheckoutIdParams,
    responses: { 200: { description: "The payment link", schema: envelopeOf(CheckoutSchema, { id: "CheckoutResponse", status: 200 }) } },
    errors: ["not_found"],
  },
]);
