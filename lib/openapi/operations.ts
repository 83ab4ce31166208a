/**
 * The registry of API operations: one entry per route file and method under app/api/v1, declared by
 * tag in ./paths (one file per aggregate). Request schemas are the ones the handlers validate with
 * (lib/schemas, the services); response schemas are in ./components. A route without an entry (or an
 * entry without a route) fails tests/integration/openapi-routes.test.ts.
 */
import { ACCOUNT, SERVICE } from "./paths/account";
import { BALANCE } from "./paths/balance";
import { CARDS } from "./paths/cards";
import { CASH_OUTS } from "./paths/cash-outs";
import { CHECKOUTS } from "./paths/checkouts";
import type { ApiTag } from "./paths/group";
import { TRANSACTIONS } from "./paths/transactions";
import { WEBHOOKS } from "./paths/webhooks";
import type { ApiOperation } from "./types";

export { TRANSACTION_EXAMPLES, TransactionIdParams } from "./paths/transactions";
export { EventIdParams } from "./paths/webhooks";
export { CashOutIdParams } from "./paths/cash-outs";
export { CheckoutIdParams } from "./paths/checkouts";

/** Every operation, in the order of the document's paths (and of their /v1 twins). */
export const OPERATIONS: ApiOperation[] = [CARDS, TRANSACTIONS, WEBHOOKS, BALANCE, CASH_OUTS, CHECKOUTS, ACCOUNT, SERVICE].flatMap(
  (group) => group.operations,
);

/** The tags, in the order the reference shows them. */
export const API_TAGS: ApiTag[] = [TRANSACTIONS, CARDS, BALANCE, CASH_OUTS, WEBHOOKS, CHECKOUTS, ACCOUNT, SERVICE].map((group) => group.tag);
