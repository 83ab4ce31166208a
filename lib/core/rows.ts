import type { cashOuts, checkouts, companies, pspRefunds, transactions, webhookAttempts, webhookEvents } from "@/lib/db/schema";

/**
 * Row types of the aggregates, from the schema (`$inferSelect`), for every layer: services, the
 * executor, the ledger, webhooks and the http kit read them from here, not from one another.
 */
export type Account = typeof companies.$inferSelect;
export type TransactionRow = typeof transactions.$inferSelect;
export type CashOutRow = typeof cashOuts.$inferSelect;
export type CheckoutRow = typeof checkouts.$inferSelect;
export type WebhookEventRow = typeof webhookEvents.$inferSelect;
export type WebhookAttemptRow = typeof webhookAttempts.$inferSelect;
/** A refund asked of the merchant's PSP (a devolução of a PIX received through API Pix). */
export type PspRefundRow = typeof pspRefunds.$inferSelect;
