/** Operations of the Cash-out tag: PIX Out from the balance. */
import { CashOutRequest, ListCashOutsQuery } from "@/lib/schemas/money";
import { CashOutListSchema, CashOutSchema, envelopeOf } from "../components";
import { apiGroup, LIST_QUERY_RULES, numericIdParams, PAGE_PARAM_DOCS } from "./group";

export const CashOutIdParams = numericIdParams("id", "Numeric cash-out id", "100");

export const CASH_OUTS = apiGroup({ name: "Cash-out", description: "PIX Out transfers from your balance." }, [
  {
    method: "post",
    path: "/api/v1/cashOut/request",
    operationId: "requestCashOut",
    summary: "Request a cash-out (PIX Out)",
    description:
      "Transfers to a PIX key from your available balance (`source: arara`, sent by Arara's payouts) or from your own PSP account (`source: psp`, the availableAtPsp balance, sent by Efí's Pix Envio; the default for an account receiving PIX through its own PSP). The amount plus fee is reserved atomically: concurrent requests can never overdraw (422 `insufficient_balance`). Completes asynchronously (`cash_out` webhooks); a failure returns the money. Send an Idempotency-Key.",
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
    description:
      "Newest first (creation time, then id), with filters. Paged as the transaction list: by `page` and `limit`, or by `cursor` (keyset, recommended): `cursor=` (empty) for the first page, then each page's `pagination.nextCursor` until it is null." +
      LIST_QUERY_RULES,
    auth: "secretKey",
    query: ListCashOutsQuery,
    paramDocs: { ...PAGE_PARAM_DOCS, externalRef: "Your externalRef, exact" },
    responses: { 200: { description: "A page of cash-outs", schema: envelopeOf(CashOutListSchema, { id: "CashOutListResponse", status: 200 }) } },
  },
  {
    method: "get",
    path: "/api/v1/cashOut/{id}",
    operationId: "getCashOut",
    summary: "Read a cash-out",
    auth: "secretKey",
    pathParams: CashOutIdParams,
    responses: { 200: { description: "The cash-out", schema: envelopeOf(CashOutSchema, { id: "CashOutReadResponse", status: 200 }) } },
    errors: ["not_found"],
  },
]);
