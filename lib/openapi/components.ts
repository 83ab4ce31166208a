/**
 * Schemas of what the API returns, for the reference only (requests are described by the same zod
 * schemas that validate them, imported from lib/schemas and the services), one file per aggregate in
 * ./schemas. Each is checked against real responses by tests/integration/openapi-conformance.test.ts,
 * so the reference cannot drift from what the handlers send.
 */
export * from "./schemas/common";
export * from "./schemas/transactions";
export * from "./schemas/account";
export * from "./schemas/balance";
export * from "./schemas/cash-outs";
export * from "./schemas/checkouts";
export * from "./schemas/webhooks";
