/** Operations of the Balance tag: the balance and the statement, read from the ledger. */
import { StatementQuery } from "@/lib/schemas/money";
import { BalanceSchema, envelopeOf, StatementPageSchema } from "../components";
import { apiGroup, LIST_QUERY_RULES } from "./group";

export const BALANCE = apiGroup({ name: "Balance", description: "Balance and statement, read from the ledger." }, [
  {
    method: "get",
    path: "/api/v1/balance",
    operationId: "getBalance",
    summary: "Balance",
    description:
      "Read from the ledger: `available` (held by Arara: can be cashed out), `availableAtPsp` (PIX received through your own PSP: in your PSP account, sent out only from there), `waitingFunds` (card sales before settlement), `reserved` (cash-outs in flight, and refunds asked of your own PSP not yet answered).",
    auth: "secretKey",
    responses: { 200: { description: "The balance, in centavos", schema: envelopeOf(BalanceSchema, { id: "BalanceResponse", status: 200 }) } },
  },
  {
    method: "get",
    path: "/api/v1/balance/statement",
    operationId: "getStatement",
    summary: "Statement",
    description: "Ledger entries of your available, waiting-funds and at-your-PSP (available_at_psp) accounts, newest first, paged by cursor only: send each page's `nextCursor` as `cursor` until it is null (`page` is a 400 saying so). Each account's entries chain: balanceAfter - amount is the previous balanceAfter of that account." +
      LIST_QUERY_RULES,
    auth: "secretKey",
    query: StatementQuery,
    paramDocs: { limit: "Entries per page, 1 to 100 (default 50)" },
    responses: { 200: { description: "A page of entries", schema: envelopeOf(StatementPageSchema, { id: "StatementResponse", status: 200 }) } },
  },
]);
