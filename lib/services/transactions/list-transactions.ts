import { and, desc, eq, gte, inArray, isNotNull, lte, not, sql, type SQL } from "drizzle-orm";
import { z } from "zod";
import { getDb } from "@/lib/db/client";
import { readPage } from "@/lib/db/prepared";
import { transactions } from "@/lib/db/schema";
import { TRANSACTION_STATUSES } from "@/lib/domain/status";
import { normalizeDocument } from "@/lib/domain/documents";
import { PageQuery, afterCursor, cappedCount, cursorPage, decodeCursor, pagination } from "@/lib/core/pagination";
import { commaList, dateParam, idList, queryBoolean, toBound } from "@/lib/schemas/query";
import { DELIVERY_STATUSES } from "@/lib/schemas/delivery";
import { MAX_INSTALLMENTS } from "@/lib/domain/fees";
import type { ServiceContext } from "../context";
import type { TransactionRow } from "./transaction-view";

/**
 * Status names a list takes besides the stored ones, and the status each reads: `approved` (a card
 * webhook's and the family's name for paid), and the family's `waiting_payment` (pending) and
 * `authorized` (a card approved and not yet captured: Arara captures a card when it is approved, so
 * no transaction is ever in it and the filter matches none).
 */
const LISTED_STATUS_ALIASES = { approved: "paid", waiting_payment: "pending", authorized: null } as const;
const LISTED_STATUSES = [...TRANSACTION_STATUSES, "waiting_payment", "authorized"] as const;
const LISTED_METHODS = ["pix", "boleto", "credit_card"] as const;
const INSTALLMENTS_MESSAGE = `must be a whole number from 1 to ${MAX_INSTALLMENTS}`;

/**
 * A text filter: at most `max` characters, never a NUL (PostgreSQL cannot compare text holding one: the
 * statement would fail). The API refuses %00 before this (queryObject); the dashboard's search box
 * reaches here directly.
 */
const textFilter = (max: number) =>
  z
    .string()
    .max(max)
    .refine((v) => !v.includes("\u0000"), "must not contain the NUL character (%00)");

export const ListTransactionsQuery = PageQuery.extend({
  status: commaList(LISTED_STATUSES).optional(),
  paymentMethod: commaList(LISTED_METHODS).optional(),
  /** The family's name for paymentMethod (their "Listar transações"); both may be sent, and are merged. */
  paymentMethods: commaList(LISTED_METHODS).optional(),
  id: idList.optional(),
  /** Part of the customer's name, any case. */
  name: textFilter(200).optional(),
  /** The customer's phone, punctuation ignored. */
  phone: textFilter(40).optional(),
  // Digits only: Number() would read 0x5, 1e1 or +5 as numbers.
  installments: z
    .string()
    .regex(/^\d{1,2}$/, INSTALLMENTS_MESSAGE)
    .transform(Number)
    .refine((n) => n >= 1 && n <= MAX_INSTALLMENTS, INSTALLMENTS_MESSAGE)
    .optional(),
  traceable: queryBoolean.optional(),
  deliveryStatus: commaList(DELIVERY_STATUSES).optional(),
  from: dateParam.optional(),
  to: dateParam.optional(),
  externalRef: textFilter(200).optional(),
  email: textFilter(320).optional(),
  documentNumber: textFilter(40).optional(),
  /** Dashboard search: name (accents ignored), e-mail, document, phone or externalRef. */
  q: textFilter(200).optional(),
});
export type ListTransactionsQuery = z.output<typeof ListTransactionsQuery>;

/**
 * Newest first, in the order of the index transactions_company_created_idx (company_id, created_at
 * DESC, id DESC, nulls first as `DESC` means): a page is read from the index, never sorted.
 */
export const TRANSACTIONS_NEWEST_FIRST = [desc(transactions.createdAt), desc(transactions.id)];

/**
 * The dashboard's split of `pending` (the API keeps one status, as the contract says): `live`, a
 * charge that can still be paid; `expired`, a PIX or boleto past its expiry that nobody paid
 * (isPendingPastExpiry, lib/domain/sandbox-offer.ts: `expires_at <= now`), shown as "Expirado".
 */
export type PendingExpiry = { pendingExpiry?: "live" | "expired"; now?: Date };

/** `%term%` for LIKE, lower-cased, with LIKE's own wildcards in the term matched as themselves. */
const likeTerm = (text: string) => `%${text.trim().toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * Accents off, for the search box: "conceicao" finds "Conceição", "Joao" finds "João". In SQL with
 * translate() over the letters Portuguese (and Spanish, French) names use, upper and lower case (lower()
 * leaves non-ASCII letters as they are under the C locale), so no extension (unaccent) nor migration is
 * needed; the term is folded the same way in JavaScript.
 */
const ACCENTED = "ÁÀÂÃÄÉÈÊËÍÌÎÏÓÒÔÕÖÚÙÛÜÇÑÝáàâãäéèêëíìîïóòôõöúùûüçñý";
const PLAIN = "aaaaaeeeeiiiiooooouuuucnyaaaaaeeeeiiiiooooouuuucny";
const folded = (column: SQL) => sql`translate(lower(${column}), ${ACCENTED}, ${PLAIN})`;
const foldTerm = (text: string) =>
  [...text.toLowerCase()].map((c) => {
    const i = ACCENTED.indexOf(c);
    return i >= 0 ? PLAIN[i] : c;
  }).join("");

/** A phone typed in the search box ("11987654350", "(11) 98765-4350", "+55 11 98765-4350"): its digits, else null. */
function phoneDigits(text: string): string[] | null {
  const t = text.trim();
  if (!/^[\d\s().+-]+$/.test(t)) return null;
  const digits = t.replace(/\D/g, "");
  if (digits.length < 8 || digits.length > 15) return null;
  // Stored as typed at creation, digits only, with or without the country code.
  return /^55\d{10,11}$/.test(digits) ? [digits, digits.slice(2)] : [digits];
}

export async function listTransactions(
  ctx: Pick<ServiceContext, "account">,
  q: ListTransactionsQuery,
  opts: PendingExpiry = {},
): Promise<{ rows: TransactionRow[]; pagination: ReturnType<typeof pagination> }> {
  const where: SQL[] = [eq(transactions.companyId, ctx.account.id)];
  if (opts.pendingExpiry) {
    // Through the column (lte), so the instant is bound as a timestamp on both drivers.
    const past = and(isNotNull(transactions.expiresAt), lte(transactions.expiresAt, opts.now ?? new Date()))!;
    where.push(eq(transactions.status, "pending"), opts.pendingExpiry === "expired" ? past : not(past));
  }
  if (q.status?.length) {
    const stored: (string | null)[] = q.status.map((s) => (Object.hasOwn(LISTED_STATUS_ALIASES, s) ? LISTED_STATUS_ALIASES[s as keyof typeof LISTED_STATUS_ALIASES] : s));
    const statuses = [...new Set(stored.filter((s): s is string => s !== null))];
    where.push(statuses.length ? inArray(transactions.status, statuses) : sql`false`);
  }
  const methods = [...new Set([...(q.paymentMethod ?? []), ...(q.paymentMethods ?? [])])];
  if (methods.length) where.push(inArray(transactions.paymentMethod, methods));
  if (q.id?.length) where.push(inArray(transactions.id, q.id));
  if (q.name?.trim()) where.push(sql`lower(${transactions.customer}->>'name') like ${likeTerm(q.name)}`);
  if (q.phone !== undefined) where.push(sql`${transactions.customer}->>'phone' = ${q.phone.replace(/[\s().+-]/g, "")}`);
  if (q.installments !== undefined) where.push(eq(transactions.installments, q.installments));
  if (q.traceable !== undefined) where.push(eq(transactions.traceable, q.traceable));
  if (q.deliveryStatus?.length) where.push(inArray(transactions.deliveryStatus, q.deliveryStatus));
  if (q.from) where.push(gte(transactions.createdAt, new Date(q.from)));
  if (q.to) where.push(lte(transactions.createdAt, toBound(q.to)));
  if (q.externalRef) where.push(eq(transactions.externalRef, q.externalRef));
  if (q.email) where.push(sql`lower(${transactions.customerEmail}) = ${q.email.trim().toLowerCase()}`);
  if (q.documentNumber) where.push(eq(transactions.customerDocument, normalizeDocument(q.documentNumber)));
  if (q.q?.trim()) {
    const term = likeTerm(q.q);
    // LIKE's wildcards in the term are matched as themselves, in the document's part too.
    const doc = normalizeDocument(q.q).replace(/[\\%_]/g, (c) => `\\${c}`);
    const phones = phoneDigits(q.q);
    where.push(
      sql`(${folded(sql`${transactions.customer}->>'name'`)} like ${foldTerm(term)} or lower(${transactions.customerEmail}) like ${term}
        or ${folded(sql`coalesce(${transactions.externalRef}, '')`)} like ${foldTerm(term)}
        or (${doc} <> '' and ${transactions.customerDocument} like ${`%${doc}%`})
        ${phones ? sql.join([sql``, ...phones.map((p) => sql`${transactions.customer}->>'phone' like ${`%${p}%`}`)], sql` or `) : sql``}
        or ${transactions.id}::text = ${q.q.trim()})`,
    );
  }
  const db = getDb();
  const cond = and(...where);
  // The total is counted up to the cap (lib/core/pagination.ts), not over all of the account's rows,
  // and in the same statement as the page (an uncorrelated subquery: counted once per statement).
  const total = cappedCount(sql`select 1 from ${transactions} where ${cond}`);
  // One statement per page, prepared on the server per connection and text (lib/db/prepared.ts,
  // readPage): the text changes only with the filters given, every value is bound, the select list is
  // made once per table and the rows are decoded by the table's decoder.
  const pageOf = (filter: SQL | undefined, limit: number, offset: number) =>
    readPage(db, transactions, { filter, order: TRANSACTIONS_NEWEST_FIRST, limit, offset, count: total });
  if (q.cursor !== undefined) {
    const keyset = afterCursor(decodeCursor(q.cursor), transactions.createdAt, transactions.id);
    const { rows, n } = await pageOf(and(cond, keyset), q.limit + 1, 0);
    return cursorPage(rows, q.limit, n, (t) => t);
  }
  const { rows, n } = await pageOf(cond, q.limit, (q.page - 1) * q.limit);
  return { rows, pagination: pagination(q.page, q.limit, n) };
}
