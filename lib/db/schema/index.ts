export * from "./accounts";
export * from "./transactions";
export * from "./ledger";
export * from "./cash-outs";
export * from "./webhooks";
export * from "./idempotency";
export * from "./branding";
