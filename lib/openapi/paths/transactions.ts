/** Operations of the Transactions tag, and the example bodies of a transaction's creation. */
import { CreateTransactionRequest } from "@/lib/schemas/transactions";
import { RefundRequest } from "@/lib/schemas/money";
import { UpdateDeliveryRequest } from "@/lib/schemas/delivery";
import { SandboxMoveRequest } from "@/lib/schemas/sandbox";
import { ListTransactionsQuery } from "@/lib/services/transactions/list-transactions";
import { CreatedTransactionSchema, envelopeOf, TransactionListSchema, TransactionSchema } from "../components";
import { apiGroup, LIST_QUERY_RULES, numericIdParams, PAGE_PARAM_DOCS } from "./group";

export const TransactionIdParams = numericIdParams("id", "Numeric transaction id", "1000");

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

export const TRANSACTIONS = apiGroup(
  { name: "Transactions", description: "Charges by PIX, boleto and card: create, read, list, refund, sandbox moves, delivery status." },
  [
    {
      method: "get",
      path: "/api/v1/transactions",
      operationId: "listTransactions",
      summary: "List transactions",
      description:
        "Newest first, with filters. Two ways to page: by `page` and `limit` (at most 100), or by `cursor` (keyset, recommended): send `cursor=` (empty) for the first page, then each page's `pagination.nextCursor` until it is null. A cursor page starts right after the last row of the previous one, so rows created while you walk the list never shift it (no row seen twice or skipped, as `page` can when new transactions arrive), and any depth costs the same. `total` counts every row matching the filters (not only those after the cursor) up to 1000; past that it is 1000 with `totalCapped: true`." +
        LIST_QUERY_RULES,
      auth: "secretKey",
      query: ListTransactionsQuery,
      paramDocs: {
        ...PAGE_PARAM_DOCS,
        status:
          "Comma list of statuses, any case: pending, processing, paid, refused, refunded, chargedback, in_protest. `approved` is read as `paid` (it is the event kind of a card approval; the transaction reads `paid`), so `status=approved` lists the paid ones; the family's `waiting_payment` is read as `pending`, and its `authorized` (approved, not captured) matches none: a card is captured when approved",
        paymentMethod: "Comma list: pix, boleto, credit_card, any case (also repeated, or paymentMethod[]=)",
        paymentMethods: "The family's name for paymentMethod; merged with it when both are sent",
        id: "A transaction id, or up to 100 ids separated by commas",
        name: "Part of the customer's name, any case",
        phone: "The customer's phone, exactly, punctuation ignored",
        installments: "The card's installments, 1 to 12",
        traceable: "true or false (also 1 or 0)",
        deliveryStatus: "Comma list: waiting, in_transit, delivered",
        from: "Created at or after (ISO 8601 date or date-time)",
        to: "Created at or before (a date includes that whole day, UTC)",
        externalRef: "Your externalRef, exact",
        email: "Customer e-mail, any case",
        documentNumber: "Customer CPF/CNPJ, punctuation allowed",
        q: "Search: part of the customer's name, e-mail or your externalRef (any case), part of the customer's CPF/CNPJ (punctuation ignored), or the transaction id exactly",
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
        "Full (default) or partial refund of a paid transaction, debited from your available balance. A partial refund keeps `paid` and grows `refundedAmount`; the refund that reaches the paid amount moves it to `refunded` (webhook). A PIX received through your own PSP (API Pix) is returned by a devolução there: Arara records the refund and holds its amount (`reserved`), commits, and only then asks the PSP; the answer is the transaction still `paid` until the PSP confirms (then `refunded`, with its webhook), or a 422 if the PSP refused it (nothing refunded, nothing held). Send an Idempotency-Key.",
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
      auth: "secretKey",
      pathParams: TransactionIdParams,
      body: { schema: UpdateDeliveryRequest, example: { status: "in_transit", trackingCode: "BR123456789BR" } },
      responses: { 200: { description: "The transaction", schema: transactionEnvelope } },
      errors: ["not_found", "unprocessable"],
    },
  ],
);
