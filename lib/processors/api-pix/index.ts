/**
 * The API Pix processor's building blocks (Banco Central's standard API Pix, release 2.8.x):
 * the client, its errors, the spec's schemas and the pure helpers. The processor that plugs these
 * into `lib/processors` (registry, per-account configuration, webhook route, reconciliation) is
 * built on top of them.
 */
export * from "./client";
export * from "./errors";
export * from "./helpers";
export * from "./schemas";
export type { ClientCertificate, TlsSettings } from "./transport";
