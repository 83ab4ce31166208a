/**
 * The decisions a merchant needs before the first request (docs/api.md says the same at more length), written once and rendered
 * twice: as the document's `info.description` (Markdown, for any OpenAPI tool) and as sections of the
 * /docs page (from the document's `x-guides`).
 */
import type { Env } from "@/lib/env";
import { STATUS_BY_CODE } from "@/lib/http/errors";
import { SANDBOX_TEST_CARDS } from "@/lib/processors/sandbox/cards";
import { SANDBOX_FAILING_PIX_KEYS } from "@/lib/processors/payouts/sandbox";
import { PUBLIC_LIMITS } from "@/lib/http/public-limits";
import { ERROR_CODES } from "./components";

export type Guide = {
  id: string;
  title: string;
  paragraphs: string[];
  table?: { columns: string[]; rows: string[][] };
  code?: string;
};

const CODE_MEANING: Record<string, string> = {
  validation_error: "A field is missing or has a bad value; malformed JSON, or a body that is not UTF-8, too. `errors` lists every field.",
  unauthorized: "Credentials missing or invalid (with `WWW-Authenticate: Basic realm=\"api\"`).",
  forbidden: "The credentials are valid but may not do this.",
  not_found: "No such resource for your account (another account's id reads as missing).",
  idempotency_conflict: "Idempotency-Key reused with a different body, or on the same operation's path in the other dialect (/v1 or /api/v1), or (on PostgreSQL) the first request with the key is still running: only that one carries `Retry-After: 1` (retry with the same key); without the header, do not retry.",
  conflict: "The resource changed while your request ran (e.g. two moves of one transaction); read it and retry.",
  unprocessable: "A business rule refused it: expired or used card token, payment after expiry, refund above the paid amount...",
  insufficient_balance: "A cash-out or refund larger than the available balance.",
  payload_too_large: "The request body is larger than 1 MB; it is not read past that.",
  method_not_allowed: "The path exists but not with this HTTP method; `Allow` lists the ones it takes.",
  rate_limited: "Too many requests: per secret key, per address on routes without a key, or from an address that sent too many invalid credentials (every request from it, valid keys too); wait for `Retry-After` seconds.",
  internal_error: "Our fault. No internals are shown; quote `requestId`.",
};

function seconds(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s === 0) return "immediately";
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.round(s / 60)} min`;
  return `${Math.round((s / 3600) * 10) / 10} h`;
}

/** How long the whole retry schedule lasts, first attempt to last (milliseconds). */
export function scheduleTotalMs(scheduleMs: readonly number[]): number {
  return scheduleMs.reduce((a, b) => a + b, 0);
}

/** "8 attempts: the first at once, then 5 s, 5 min, ... after the previous failure (about 27.5 h in all)". */
function retrySchedule(scheduleMs: readonly number[]): string {
  const [first, ...rest] = scheduleMs;
  const start = first === undefined || Math.round(first / 1000) === 0 ? "the first at once" : `the first after ${seconds(first)}`;
  if (!rest.length) return `1 attempt (${start})`;
  return `${scheduleMs.length} attempts: ${start}, then ${rest.map(seconds).join(", ")} after the previous failure (about ${seconds(scheduleTotalMs(scheduleMs))} in all)`;
}

export function guides(env: Env): Guide[] {
  return [
    {
      id: "authentication",
      title: "Authentication",
      paragraphs: [
        "Each account has a public key (`pk_test_...`, safe in browsers; only for card tokenization) and a secret key (`sk_test_...`, server side only, shown once; stored as a SHA-256 hash and compared in constant time).",
        "Every route under /api/v1 except card tokenization, the browser script, health and this reference uses HTTP Basic: `Authorization: Basic base64(credentials)`. All the forms clients of this gateway family send are accepted: the part that starts with `sk_` authenticates (user name or password alike), and `Basic sk_...` with the key itself not base64-encoded works too. The other part is not checked unless it is a key: anything else (`x`, empty, absent, any text) is ignored, a `pk_` must be your own (another account's is a 401), a second `sk_` is a 401. A `pk_` alone is a 401. `Authorization: Bearer sk_...` (the scheme in any case) is accepted too, checked exactly as the same key in Basic (the same lookup, answers and lock-out after failures); `Bearer pk_...` is a public key alone, a 401.",
        "Card tokenization authenticates with `?publicKey=pk_...` in the query string and is open to every origin (CORS).",
      ],
      table: {
        columns: ["Form", "Header"],
        rows: [
          ["public:secret (the spec's formula)", "Basic base64(pk_test_...:sk_test_...)"],
          ["secret:public", "Basic base64(sk_test_...:pk_test_...)"],
          ["secret with empty password", "Basic base64(sk_test_...:)"],
          ["secret:x", "Basic base64(sk_test_...:x)"],
          ["secret alone, no colon", "Basic base64(sk_test_...)"],
          ["the key itself, not base64-encoded", "Basic sk_test_... (or Basic sk_test_...:x)"],
          ["Bearer with the secret key", "Bearer sk_test_..."],
        ],
      },
      // The deployment's own base URL (BASE_URL), as the switching guide's example: pasted, it runs.
      code: `curl -u "sk_test_...:" ${env.baseUrl.replace(/\/$/, "")}/api/v1/company`,
    },
    {
      id: "envelope",
      title: "Responses and errors",
      paragraphs: [
        "Success: `{ success: true, message?, status, data }` (`message`, a sentence for people, only on a transaction's and a payment link's creation and on webhook redeliver and skip, not on a cash-out request's answer: never rely on it; `status` repeats the HTTP status). Amounts are integers in centavos everywhere.",
        "Errors: `{ success: false, status, message, code, errors?, requestId? }`. Branch on `code`, never on `message`. Malformed JSON, or a body that is not UTF-8, is a 400, never a 500. Every response carries `X-Request-Id`.",
      ],
      table: {
        columns: ["code", "HTTP", "When"],
        rows: ERROR_CODES.map((c) => [c, String(STATUS_BY_CODE[c]), CODE_MEANING[c] ?? ""]),
      },
    },
    {
      id: "idempotency",
      title: "Idempotency",
      paragraphs: [
        "Send `Idempotency-Key: <your unique id>` (at most 255 characters) on every POST that creates or moves money: transactions, refunds, cash-outs, payment links. The same key with the same body within 24 hours replays the first response byte for byte, with its status (with `Idempotent-Replayed: true`); the same key with a different body is a 409 `idempotency_conflict`, and so is a key already answered on the same operation's path in the other dialect (`/api/v1/...` and `/v1/...`: retry on the path it was used on); two concurrent requests with one key: one runs; on PostgreSQL the other gets a 409 \`idempotency_conflict\` with \`Retry-After: 1\` at once while the first is still running (retry it: once the first has committed it replays; the two kinds of 409 share their code, and the header, never the message, tells them apart), and on the embedded database (PGlite, one transaction at a time) it waits for the first to commit and gets its replay (\`Idempotent-Replayed: true\`).",
        "The key's record is written in the same database transaction as the operation. So a retry after any failure is safe: if the first request committed, the retry replays its answer; if it did not (a 5xx, a timeout, our process killed mid-request), nothing of it remains and the retry runs once. Error answers from the operation (4xx) are remembered too: to try again after fixing the request, use a new key.",
        "Keys are scoped by account and operation: the method and the path, with ids read as numbers (`/transactions/007/refund` and `/transactions/7/refund` are one operation). The body is compared after sorting object keys.",
      ],
    },
    {
      id: "rate-limit",
      title: "Rate limit",
      paragraphs: [
        `Per secret key: ${env.rateLimitPerSecond} requests per second on average over ten seconds (${env.rateLimitPerSecond * 10} per ten-second window), and at most ${env.rateLimitBurst} in one second (RATE_LIMIT_PER_SECOND, RATE_LIMIT_BURST). Above it: 429 \`rate_limited\` with \`Retry-After\` in seconds. The windows are fixed: each starts at the key's first request after the previous one ended.`,
        "The counters are kept in the database and shared by every instance: behind a balancer with N instances a key still gets the rate once, not N times.",
        `Per address: ${PUBLIC_LIMITS.invalidKeyPerAddress.points} requests with credentials that do not authenticate (an unknown, revoked or malformed secret key, a public key alone) within ${PUBLIC_LIMITS.invalidKeyPerAddress.windowSeconds} s lock the address out: every request it sends with Basic credentials, valid keys too, is a 429 \`rate_limited\` ("Too many requests with invalid credentials from this address") until that window ends, up to ${PUBLIC_LIMITS.invalidKeyPerAddress.windowSeconds} s after the first of them. When you rotate the secret key, retire the old one from every worker and cron job: one process still sending it from behind the same NAT or egress address locks your whole backend out.`,
      ],
    },
    {
      id: "webhooks",
      title: "Webhooks",
      paragraphs: [
        "Every status change of a transaction (and of a cash-out) is POSTed as JSON to its `postbackUrl`, in order per transaction. Answer any 2xx within the timeout; deduplicate on `data.id` and keep the last status, or on the `webhook-id` header (one per event, the same on every retry).",
        `Timeout ${Math.round(env.webhookTimeoutMs / 1000)} s. ${retrySchedule(env.webhookRetryScheduleMs)}, then the event is marked failed; it can be redelivered from the dashboard or the API.`,
        `Order has a cost when your endpoint is down: a transaction's later events (say \`paid\` after \`pending\`) wait until the earlier one is delivered or finally fails, up to the whole schedule (about ${seconds(scheduleTotalMs(env.webhookRetryScheduleMs))}). Such an event shows \`waitingForEventId\` and no \`nextAttemptAt\`. Fix the endpoint and redeliver the earlier event (\`POST /api/v1/webhooks/{eventId}/redeliver\`), or give it up (\`POST /api/v1/webhooks/{eventId}/skip\`): the events behind it go at once. Or read the transaction: it always has the current status.`,
        "Signature (Standard Webhooks): `webhook-signature: v1,<base64 HMAC-SHA256>` of `{webhook-id}.{webhook-timestamp}.{raw body}`, keyed with the base64-decoded part of your `whsec_` secret (dashboard). Reject timestamps older than 5 minutes. Any Standard Webhooks library verifies it.",
        "postbackUrl must be http:// or https://; in production, URLs naming or resolving to loopback, private, link-local or metadata addresses are refused (400) and checked again at every delivery.",
      ],
    },
    {
      id: "test-cards",
      title: "Sandbox: test cards and PIX keys",
      paragraphs: [
        "Everything is test mode with the built-in sandbox acquirer. It decides by card number; any other valid card (Luhn, accepted brand, future expiry) is approved. Use any holder name, a future expiry and a CVV of the brand's length (4 for Amex, else 3).",
        "PIX and boleto charges stay pending until paid: use `PUT /api/v1/transactions/{id}/test` or the checkout page's \"simulate payment\" button.",
        `Cash-outs complete after SANDBOX_PSP_DELAY_MS (${env.sandboxPspDelayMs} ms here), except to these PIX keys, which fail (the money comes back): ${Object.keys(SANDBOX_FAILING_PIX_KEYS)
          .map((k) => `\`${k}\``)
          .join(", ")}.`,
      ],
      table: {
        columns: ["Number", "Brand", "Result"],
        rows: SANDBOX_TEST_CARDS.map((c) => [c.number, c.brand, c.outcome === "approved" ? "Approved" : `${c.description} (refusedReason ${c.outcome})`]),
      },
    },
    {
      id: "limits",
      title: "Amounts and limits",
      paragraphs: [
        "Amounts are integer centavos: at least 100 (R$ 1,00) for card and boleto, at least 1 for PIX, at most 100000000 (R$ 1.000.000,00); `amount` must equal the items' total, or that plus `shipping.fee`.",
        "`pix.expiresInDays` 1 to 30 (default 2); `boleto.expiresInDays` 1 to 90 (default 2); `installments` 1 to 12 (default 1, card only). Card tokens are valid 5 minutes and single use. List endpoints: `limit` at most 100. A cash-out's `description` at most 140 characters and its `externalRef` at most 200 (after trimming; 400 beyond).",
        "Unknown fields are ignored, not rejected; `paymentMethod` and document type are accepted in any case; phones and documents with punctuation are accepted and stored as digits.",
      ],
    },
    {
      id: "versioning",
      title: "Versioning",
      paragraphs: [
        "The version is the path prefix `/api/v1`. Fields may be added to responses within v1; nothing is removed or renamed.",
      ],
    },
  ];
}

/** The guides as CommonMark, for `info.description`. */
export function guidesMarkdown(list: Guide[]): string {
  return list
    .map((g) => {
      const parts = [`## ${g.title}`, ...g.paragraphs];
      if (g.table) {
        parts.push(
          [
            `| ${g.table.columns.join(" | ")} |`,
            `| ${g.table.columns.map(() => "---").join(" | ")} |`,
            ...g.table.rows.map((r) => `| ${r.map((c) => c.replace(/\|/g, "\\|")).join(" | ")} |`),
          ].join("\n"),
        );
      }
      if (g.code) parts.push("```\n" + g.code + "\n```");
      return parts.join("\n\n");
    })
    .join("\n\n");
}
