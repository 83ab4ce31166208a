/**
 * The registry of API operations: one entry per route file and method under app/api/v1. Request
 * schemas are the ones the handlers validate with (lib/schemas, the services); response schemas are
 * in ./components. A route without an entry (or an entry without a route) fails
 * tests/integration/openapi-routes.test.ts.
 */
import { z } from "zod";
import { CardInput } from "@/lib/domain/card/validate";
import { ListTransactionsQuery } from "@/lib/services/transactions/list-transactions";
import { CreateTransactionRequest } from "@/lib/schemas/transactions";
import { CashOutRequest, ListCashOutsQuery, RefundRequest, StatementQuery } from "@/lib/schemas/money";
import { UpdateDeliveryRequest } from "@/lib/schemas/delivery";
import { CreateCheckoutInput, ListCheckoutsQuery } from "@/lib/schemas/checkouts";
import { SandboxMoveRequest } from "@/lib/schemas/sandbox";
import {
  BalanceSchema,
  CashOutListSchema,
  CashOutSchema,
  CheckoutListSchema,
  CheckoutSchema,
  CompanySchema,
  CreatedTransactionSchema,
  HealthSchema,
  RedeliverySchema,
  StatementPageSchema,
  TransactionListSchema,
  TransactionSchema,
  WebhookEventSchema,
  envelopeOf,
} from "./components";
import type { ApiOperation } from "./types";

export const TransactionIdParams = z.object({
  id: z.string().regex(/^\d+$/).meta({ description: "Numeric transaction id", example: "1000" }),
});

export const EventIdParams = z.object({
  eventId: z.string().regex(/^\d+$/).meta({ description: "Notification id (the webhook-id header, the body's id)", example: "42" }),
});
export const CashOutIdParams = z.object({
  id: z.string().regex(/^\d+$/).meta({ description: "Numeric cash-out id", example: "100" }),
});
export const CheckoutIdParams = z.object({
  id: z.string().regex(/^\d+$/).meta({ description: "Numeric payment link id", example: "500" }),
});

const transactionEnvelope = envelopeOf(TransactionSchema, { id: "TransactionResponse", status: 200 });

const customer = {
  name: "Maria Silva",
  email: "maria@example.com",
  phone: "(11) 98765-4321",
  document: { type: "cpf", number: "111.444.777-35" },
};
const items = [{ title: "Camiseta", unitPrice: 5000, quantity: 2, tangible: true }];

/** Valid creation bodies, one per method (the card one needs a fresh token in card.hash). */
export const TRANSACTION_EXAMPLES = {
  pix: { paymentMethod: "pix", amount: 10000, customer, items, externalRef: "order-123", postbackUrl: "https://shop.example/webhooks/arara", pix: { expiresInDays: 2 } },
  boleto: { paymentMethod: "boleto", amount: 10000, customer, items, boleto: { expiresInDays: 5 } },
  credit_card: {
    paymentMethod: "credit_card",
    amount: 10000,
    installments: "3",
    customer,
    items,
    ip: "203.0.113.7",
    card: { hash: "ct_... (from POST /api/v1/card-token)" },
    metadata: { orderId: 123 },
  },
} as const;

const card = {
  number: "4111111111111111",
  holderName: "MARIA SILVA",
  expirationMonth: "12",
  expirationYear: "2030",
  cvv: "123",
};

export const OPERATIONS: ApiOperation[] = [
  // ---- Cards ------------------------------------------------------------------------------------
  {
    method: "post",
    path: "/api/v1/card-token",
    operationId: "createCardToken",
    summary: "Tokenize a card",
    description:
      "Called from the payer's browser with your public key; the card never reaches your server. Returns the token as plain text (not JSON): pass it as `card.hash` when creating a credit_card transaction. Valid 5 minutes, single use, bound to your account. Fields may be strings or numbers; a `{ card: {...} }` wrapper is accepted. Open to every origin (CORS).",
    tag: "Cards",
    auth: "publicKey",
    query: z.object({ publicKey: z.string().meta({ description: "Your public key, pk_test_..." }) }),
    body: {
      schema: z.union([CardInput, z.object({ card: CardInput })]),
      description: "The card: number (Luhn-valid, 12-19 digits), holderName, expirationMonth (MM), expirationYear (YYYY), cvv (3, or 4 for Amex)",
      example: card,
      examples: { wrapped: { card } },
    },
    responses: {
      200: {
        description: "The card token (text/plain)",
        contentType: "text/plain",
        text: "An opaque signed token (AES-256-GCM), no quotes",
        example: "ct_v1.AbC...",
      },
    },
    notes: ["Card data is never stored or logged: the transaction keeps brand, first 6 and last 4 digits, holder name and expiry."],
  },
  {
    method: "get",
    path: "/api/v1/js",
    operationId: "getBrowserScript",
    summary: "Browser tokenization script",
    description:
      "A script for merchants who build their own card form: `Arara.setPublicKey(pk)` then `Arara.encrypt(card)` resolves to a card token. Include it with `<script src=\"{base_url}/api/v1/js\"></script>`.",
    tag: "Cards",
    auth: "none",
    responses: {
      200: { description: "JavaScript", contentType: "application/javascript", text: "The tokenization script", example: "/* Arara.js */" },
    },
  },

  // ---- Transactions -----------------------------------------------------------------------------
  {
    method: "get",
    path: "/api/v1/transactions",
    operationId: "listTransactions",
    summary: "List transactions",
    description: "Newest first, with filters. Pagination by `page` and `limit` (at most 100), or by `cursor` (keyset: any depth at the same cost). `total` is counted up to 1000; past that it is 1000 with `totalCapped: true`.",
    tag: "Transactions",
    auth: "secretKey",
    query: ListTransactionsQuery,
    paramDocs: {
      page: "Page number, from 1",
      limit: "Rows per page, 1 to 100 (default 20)",
      status: "Comma list of statuses: pending, processing, paid, approved, refused, refunded, chargedback, in_protest",
      paymentMethod: "Comma list: pix, boleto, credit_card",
      from: "Created at or after (ISO 8601 date or date-time)",
      to: "Created at or before (a date includes that whole day, UTC)",
      externalRef: "Your externalRef, exact",
      email: "Customer e-mail, any case",
      documentNumber: "Customer CPF/CNPJ, punctuation allowed",
      q: "Search in name, e-mail, document, externalRef or id",
      cursor: "Keyset paging: empty for the first page, then the previous page's pagination.nextCursor (page is then ignored)",
    },
    responses: {
      200: {
        description: "A page of transactions",
        schema: envelopeOf(TransactionListSchema, { id: "TransactionListResponse", status: 200 }),
      },
    },
  },
  {
    method: "post",
    path: "/api/v1/transactions",
    operationId: "createTransaction",
    summary: "Create a transaction",
    description:
      "One endpoint for the three methods, chosen by `paymentMethod`. PIX and boleto are asynchronous: created `pending` with the QR code (PIX) or the slip (boleto). A card is synchronous: the response already says `paid` or `refused` (a refusal is a 201 with `refusedReason`, not an error). Unknown fields are ignored. Send an Idempotency-Key.",
    tag: "Transactions",
    auth: "secretKey",
    idempotent: true,
    body: {
      schema: CreateTransactionRequest,
      example: TRANSACTION_EXAMPLES.pix,
      examples: { pix: TRANSACTION_EXAMPLES.pix, boleto: TRANSACTION_EXAMPLES.boleto, credit_card: TRANSACTION_EXAMPLES.credit_card },
    },
    responses: {
      201: {
        description: "Created (a refused card is created too, with status refused)",
        schema: envelopeOf(CreatedTransactionSchema, { id: "CreatedTransactionResponse", status: 201, message: true }),
      },
    },
    errors: ["unprocessable"],
    notes: [
      "422 `unprocessable` for an expired, already used or other account's card token.",
      "postbackUrl pointing at a private address is a 400 in production (see Webhooks).",
    ],
  },
  {
    method: "get",
    path: "/api/v1/transactions/{id}",
    operationId: "getTransaction",
    summary: "Read a transaction",
    description: "The Transaction resource. Another account's id is a 404, as if it did not exist. Boleto data is in the creation response and webhooks, not here.",
    tag: "Transactions",
    auth: "secretKey",
    pathParams: TransactionIdParams,
    responses: { 200: { description: "The transaction", schema: transactionEnvelope } },
    errors: ["not_found"],
  },

  {
    method: "post",
    path: "/api/v1/transactions/{id}/refund",
    operationId: "refundTransaction",
    summary: "Refund a transaction",
    description:
      "Full (default) or partial refund of a paid transaction, debited from your available balance. A partial refund keeps `paid` and grows `refundedAmount`; the refund that reaches the paid amount moves it to `refunded` (webhook). Send an Idempotency-Key.",
    tag: "Transactions",
    auth: "secretKey",
    idempotent: true,
    pathParams: TransactionIdParams,
    body: { schema: RefundRequest, example: { amount: 2500 }, examples: { full: {} } },
    responses: { 200: { description: "The transaction after the refund", schema: transactionEnvelope } },
    errors: ["not_found", "unprocessable", "insufficient_balance", "conflict"],
  },
  {
    method: "put",
    path: "/api/v1/transactions/{id}/test",
    operationId: "sandboxMoveTransaction",
    summary: "Sandbox: move a test transaction",
    description:
      "Simulates the PSP or acquirer: pay a PIX (`paid`), clear a boleto (`paid`), `processing`, `refused`, `refunded` (the whole rest), `chargedback`, `in_protest`, and from a protest `paid` (won) or `chargedback` (lost). Only moves of the status table; each sends its webhook. A PIX or boleto past its expiry can no longer be paid (422), nor can a transaction of a payment link that another transaction already paid (409).",
    tag: "Transactions",
    auth: "secretKey",
    pathParams: TransactionIdParams,
    body: { schema: SandboxMoveRequest, example: { status: "paid" } },
    responses: { 200: { description: "The transaction after the move", schema: transactionEnvelope } },
    errors: ["not_found", "unprocessable", "conflict", "forbidden"],
    notes: ["Sandbox only: with a live processor this route answers 403."],
  },
  {
    method: "put",
    path: "/api/v1/transactions/{id}/delivery",
    operationId: "updateDelivery",
    summary: "Update the delivery status",
    description: "For transactions with shipping: `waiting`, `in_transit` or `delivered`, with an optional tracking code.",
    tag: "Transactions",
    auth: "secretKey",
    pathParams: TransactionIdParams,
    body: { schema: UpdateDeliveryRequest, example: { status: "in_transit", trackingCode: "BR123456789BR" } },
    responses: { 200: { description: "The transaction", schema: transactionEnvelope } },
    errors: ["not_found", "unprocessable"],
  },
  {
    method: "get",
    path: "/api/v1/transactions/{id}/webhooks",
    operationId: "listTransactionWebhooks",
    summary: "Webhooks of a transaction",
    description: "Every notification of the transaction, oldest first, with each delivery attempt (status, duration, error).",
    tag: "Webhooks",
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
  ...(["/api/v1/psp/api-pix/{token}/pix", "/api/v1/psp/api-pix/{token}"] as const).map(
    (path, i): ApiOperation => ({
      method: "post",
      path,
      operationId: i === 0 ? "receiveApiPixNotification" : "receiveApiPixNotificationBare",
      summary: i === 0 ? "API Pix PSP notification (called by your PSP)" : "API Pix PSP notification, bare URL",
      description:
        "Not for integrators: the URL Arara registers at your PSP (`PUT /webhook/{chave}` of the API Pix) when the account receives PIX through its own PSP. The PSP posts `{ pix: [...] }` here; the body only wakes a re-read of each end-to-end id at the PSP (`GET /pix/{e2eid}`, `GET /cob/{txid}`), nothing in it is trusted. An unknown token is a 404.",
      tag: "Webhooks",
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
  {
    method: "post",
    path: "/api/v1/webhooks/{eventId}/redeliver",
    operationId: "redeliverWebhook",
    summary: "Redeliver a webhook now",
    description:
      "Sends the notification again within the request, as a manual attempt (logged). A success marks it delivered; a failure changes nothing else. An event whose earlier event of the same transaction is still pending is refused (422) so order is kept; 409 while an automatic attempt is in flight.",
    tag: "Webhooks",
    auth: "secretKey",
    pathParams: EventIdParams,
    responses: { 200: { description: "The event with the new attempt", schema: envelopeOf(RedeliverySchema, { id: "WebhookRedeliveryResponse", status: 200, message: true }) } },
    errors: ["not_found", "unprocessable", "conflict"],
  },
  {
    method: "post",
    path: "/api/v1/webhooks/{eventId}/skip",
    operationId: "skipWebhook",
    summary: "Skip (give up) a webhook",
    description:
      "Gives up a pending or failed notification: no more automatic attempts (state `abandoned`), and the later events of its transaction, which wait for it because delivery is in order, are released at once. Logged in the event's attempts as an entry of kind `skip`. Skipping an abandoned event again changes nothing; it can still be redelivered by hand. 422 for a delivered event or one without a URL; 409 while an attempt is in flight.",
    tag: "Webhooks",
    auth: "secretKey",
    pathParams: EventIdParams,
    responses: { 200: { description: "The event, abandoned", schema: envelopeOf(WebhookEventSchema, { id: "WebhookSkipResponse", status: 200, message: true }) } },
    errors: ["not_found", "unprocessable", "conflict"],
  },

  // ---- Balance ------------------------------------------------------------------------------------
  {
    method: "get",
    path: "/api/v1/balance",
    operationId: "getBalance",
    summary: "Balance",
    description: "Read from the ledger: `available` (can be cashed out), `waitingFunds` (card sales before settlement), `reserved` (cash-outs in flight).",
    tag: "Balance",
    auth: "secretKey",
    responses: { 200: { description: "The balance, in centavos", schema: envelopeOf(BalanceSchema, { id: "BalanceResponse", status: 200 }) } },
  },
  {
    method: "get",
    path: "/api/v1/balance/statement",
    operationId: "getStatement",
    summary: "Statement",
    description: "Ledger entries of your available and waiting-funds accounts, newest first, cursor paginated. Each account's entries chain: balanceAfter - amount is the previous balanceAfter of that account.",
    tag: "Balance",
    auth: "secretKey",
    query: StatementQuery,
    paramDocs: { limit: "Entries per page, 1 to 100 (default 50)" },
    responses: { 200: { description: "A page of entries", schema: envelopeOf(StatementPageSchema, { id: "StatementResponse", status: 200 }) } },
  },

  // ---- Cash-out -----------------------------------------------------------------------------------
  {
    method: "post",
    path: "/api/v1/cashOut/request",
    operationId: "requestCashOut",
    summary: "Request a cash-out (PIX Out)",
    description:
      "Transfers from your available balance to a PIX key. The amount plus fee is reserved atomically: concurrent requests can never overdraw (422 `insufficient_balance`). Completes asynchronously (`cash_out` webhooks); a failure returns the money. Send an Idempotency-Key.",
    tag: "Cash-out",
    auth: "secretKey",
    idempotent: true,
    body: {
      schema: CashOutRequest,
      example: { amount: 5000, pixKey: "maria@example.com", pixKeyType: "email", description: "Saque semanal", externalRef: "payout-77" },
      examples: { cpf: { amount: 1500, pixKey: "111.444.777-35" } },
    },
    responses: { 201: { description: "The cash-out, pending", schema: envelopeOf(CashOutSchema, { id: "CashOutResponse", status: 201 }) } },
    errors: ["insufficient_balance", "unprocessable"],
  },
  {
    method: "get",
    path: "/api/v1/cashOut",
    operationId: "listCashOuts",
    summary: "List cash-outs",
    tag: "Cash-out",
    auth: "secretKey",
    query: ListCashOutsQuery,
    paramDocs: { page: "Page number, from 1", limit: "Rows per page, 1 to 100 (default 20)", externalRef: "Your externalRef, exact" },
    responses: { 200: { description: "A page of cash-outs", schema: envelopeOf(CashOutListSchema, { id: "CashOutListResponse", status: 200 }) } },
  },
  {
    method: "get",
    path: "/api/v1/cashOut/{id}",
    operationId: "getCashOut",
    summary: "Read a cash-out",
    tag: "Cash-out",
    auth: "secretKey",
    pathParams: CashOutIdParams,
    responses: { 200: { description: "The cash-out", schema: envelopeOf(CashOutSchema, { id: "CashOutReadResponse", status: 200 }) } },
    errors: ["not_found"],
  },

  // ---- Checkouts ----------------------------------------------------------------------------------
  {
    method: "post",
    path: "/api/v1/checkouts",
    operationId: "createCheckout",
    summary: "Create a payment link",
    description:
      "A hosted page (`secureUrl`) where the payer chooses among `methods` and pays. Each payment attempt becomes a transaction with the link's postbackUrl. A link is paid once: the first of its transactions to be paid is the link's payment (`transactionId`), and its other pending transactions can no longer be paid. A payment that still arrives for one of them (a PIX already sent cannot be refused) is recorded and refunded in full at once, with no fee: that transaction sends `paid` then `refunded`.",
    tag: "Checkouts",
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
    tag: "Checkouts",
    auth: "secretKey",
    query: ListCheckoutsQuery,
    paramDocs: { page: "Page number, from 1", limit: "Rows per page, 1 to 100 (default 20)", externalRef: "Your externalRef, exact" },
    responses: { 200: { description: "A page of payment links", schema: envelopeOf(CheckoutListSchema, { id: "CheckoutListResponse", status: 200 }) } },
  },
  {
    method: "get",
    path: "/api/v1/checkouts/{id}",
    operationId: "getCheckout",
    summary: "Read a payment link",
    tag: "Checkouts",
    auth: "secretKey",
    pathParams: CheckoutIdParams,
    responses: { 200: { description: "The payment link", schema: envelopeOf(CheckoutSchema, { id: "CheckoutResponse", status: 200 }) } },
    errors: ["not_found"],
  },

  // ---- Account ----------------------------------------------------------------------------------
  {
    method: "get",
    path: "/api/v1/company",
    operationId: "getCompany",
    summary: "Your account",
    tag: "Account",
    auth: "secretKey",
    responses: { 200: { description: "The account", schema: envelopeOf(CompanySchema, { id: "CompanyResponse", status: 200 }) } },
  },

  // ---- Service ----------------------------------------------------------------------------------
  {
    method: "get",
    path: "/api/v1/health",
    operationId: "getHealth",
    summary: "Health check",
    description: "For load balancers: 200 when the database answers, 503 when it does not. Not wrapped in the envelope.",
    tag: "Service",
    auth: "none",
    responses: {
      200: { description: "Healthy", schema: HealthSchema, example: { status: "ok", database: "postgres" } },
      503: { description: "The database does not answer", schema: HealthSchema, example: { status: "degraded", database: "postgres" } },
    },
  },
  {
    method: "get",
    path: "/api/v1/openapi.json",
    operationId: "getOpenApiDocument",
    summary: "This reference (OpenAPI 3.1)",
    description: "Generated from the same zod schemas that validate the requests. A readable rendering is at /docs.",
    tag: "Service",
    auth: "none",
    responses: { 200: { description: "The OpenAPI 3.1 document", schema: z.record(z.string(), z.unknown()) } },
  },
];
