/**
 * Builds the OpenAPI 3.1 document from the operation registry with zod-openapi: request schemas in
 * their input form (what a client may send, before defaults and transforms), responses in their
 * output form. Built once per process (it only depends on configuration).
 */
import { z } from "zod";
import {
  createDocument,
  type ZodOpenApiOperationObject,
  type ZodOpenApiPathsObject,
  type ZodOpenApiResponseObject,
} from "zod-openapi";
import { getEnv, type Env } from "@/lib/env";
import { STATUS_BY_CODE } from "@/lib/http/errors";
import type { ErrorCode } from "@/lib/services/errors";
import {
  CashOutNotificationSchema,
  ErrorBodySchema,
  RefundNotificationSchema,
  TransactionNotificationSchema,
  WebhookHeadersSchema,
} from "./components";
import { addV1Dialect, switchingGuide } from "./dialect";
import { guides, guidesMarkdown } from "./guides";
import { API_TAGS, OPERATIONS } from "./operations";
import type { ApiOperation } from "./types";

/** The refund of the `refund` notification's example, also in its transaction's `refunds`. */
const REFUND_EXAMPLE = {
  id: 7,
  amount: 500,
  status: "failed",
  reason: "Devolução não realizada pelo PSP: Conta do pagador encerrada.",
  rtrId: "D12345678202606011210abcdefghijk",
  origin: "merchant",
  natureza: "ORIGINAL",
  motivo: null,
  createdAt: "2026-06-01T12:10:00.000Z",
  updatedAt: "2026-06-01T12:12:00.000Z",
};

export const API_VERSION = "1.0.0";


const ERROR_DESCRIPTION: Record<number, string> = {
  400: "Validation error: a field is missing or invalid, or the body is not JSON in UTF-8",
  401: "Credentials missing or invalid",
  403: "Not allowed",
  404: "Not found (or another account's)",
  409: "Idempotency-Key conflict or a concurrent change",
  422: "A business rule refused the request",
  405: "Method not allowed: see Allow",
  413: "Request body larger than 1 MB",
  429: "Rate limited: see Retry-After",
  500: "Internal error: quote requestId",
};

/** Every error code an operation can answer: its own plus the ones every route of its kind has. */
export function errorCodesOf(op: ApiOperation): ErrorCode[] {
  const codes = new Set<ErrorCode>(op.errors ?? []);
  if (op.body || op.query || op.pathParams) codes.add("validation_error");
  // The handler kit reads the body of every write it authenticates (lib/http/body.ts), documented or not.
  if (op.body || (op.auth === "secretKey" && op.method !== "get")) codes.add("payload_too_large");
  if (op.auth !== "none") codes.add("unauthorized");
  if (op.auth === "secretKey") codes.add("rate_limited");
  if (op.idempotent) codes.add("idempotency_conflict");
  codes.add("internal_error");
  return [...codes];
}

function errorExample(code: ErrorCode) {
  return { success: false, status: STATUS_BY_CODE[code], message: "A readable sentence.", code, requestId: "0f8e4bd6-0c61-4b0f-8d0a-6ad1a3a5d0f1" };
}

function operationObject(op: ApiOperation): ZodOpenApiOperationObject {
  const responses: Record<string, ZodOpenApiResponseObject> = {};
  const requestIdHeader = { "x-request-id": { description: "Request id (quote it to support)", schema: { type: "string" as const } } };
  // On an operation that honours Idempotency-Key: a replayed answer says so (lib/http/idempotency.ts).
  const replayedHeader: Record<string, { description: string; schema: { type: "string"; enum?: string[] } }> = op.idempotent
    ? {
        "idempotent-replayed": {
          description: "`true` when this is the stored answer of an earlier request with the same Idempotency-Key and body, replayed byte for byte; absent on a first answer",
          schema: { type: "string" as const, enum: ["true"] },
        },
      }
    : {};
  for (const [status, r] of Object.entries(op.responses)) {
    const contentType = r.contentType ?? "application/json";
    responses[status] = {
      description: r.description,
      headers: { ...requestIdHeader, ...replayedHeader },
      content: {
        [contentType]: {
          schema: r.schema ?? { type: "string", description: r.text },
          ...(r.example !== undefined ? { example: r.example } : {}),
        },
      },
    };
  }
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of errorCodesOf(op)) {
    const s = STATUS_BY_CODE[code];
    byStatus.set(s, [...(byStatus.get(s) ?? []), code]);
  }
  for (const [status, codes] of [...byStatus].sort((a, b) => a[0] - b[0])) {
    const headers: Record<string, { description: string; schema: { type: "string"; enum?: string[] } }> = { ...requestIdHeader };
    if (status === 401 && op.auth === "secretKey") headers["www-authenticate"] = { description: 'Basic realm="api"', schema: { type: "string" } };
    if (status === 429) headers["retry-after"] = { description: "Seconds to wait", schema: { type: "string" } };
    if (status === 409 && op.idempotent) {
      headers["retry-after"] = {
        description:
          "`1` on the idempotency_conflict of a key whose first request is still being processed (retry with the same key after it); absent on a key used with another body or on the other dialect's path (do not retry: a new key, or the path the key was used on)",
        schema: { type: "string" },
      };
    }
    // A 4xx of the operation itself is remembered with the key and replayed like a success.
    if ([400, 404, 422].includes(status)) Object.assign(headers, replayedHeader);
    responses[String(status)] = {
      description: `${ERROR_DESCRIPTION[status] ?? "Error"} (code: ${codes.join(", ")})`,
      headers,
      content: { "application/json": { schema: ErrorBodySchema, example: errorExample(codes[0]) } },
    };
  }

  const headerParams = op.idempotent
    ? z.object({
        "Idempotency-Key": z
          .string()
          .max(255)
          .optional()
          .meta({ description: "Your unique id for this request: a retry with the same key and body replays the first response for 24 h" }),
      })
    : undefined;

  const out: ZodOpenApiOperationObject = {
    operationId: op.operationId,
    summary: op.summary,
    ...(op.description ? { description: op.description } : {}),
    tags: [op.tag],
    // Either scheme (alternatives): HTTP Basic in any of its forms, or Bearer with the secret key.
    security: op.auth === "secretKey" ? [{ basicAuth: [] }, { bearerAuth: [] }] : op.auth === "publicKey" ? [{ publicKey: [] }] : [],
    requestParams: {
      ...(op.pathParams ? { path: op.pathParams } : {}),
      ...(op.query ? { query: op.query } : {}),
      ...(headerParams ? { header: headerParams } : {}),
    },
    responses: responses as ZodOpenApiOperationObject["responses"],
  };
  if (op.body) {
    out.requestBody = {
      required: true,
      ...(op.body.description ? { description: op.body.description } : {}),
      content: {
        [op.body.contentType ?? "application/json"]: {
          schema: op.body.schema,
          example: op.body.example,
          ...(op.body.examples
            ? { examples: Object.fromEntries(Object.entries(op.body.examples).map(([k, v]) => [k, { value: v }])) }
            : {}),
        },
      },
    };
  }
  const extra = out as unknown as Record<string, unknown>;
  if (op.idempotent) extra["x-idempotent"] = true;
  if (op.notes?.length) extra["x-notes"] = op.notes;
  return out;
}

function webhookOperation(summary: string, description: string, schema: z.ZodType, example: unknown): ZodOpenApiOperationObject {
  return {
    summary,
    description,
    tags: ["Webhooks"],
    requestParams: { header: WebhookHeadersSchema },
    requestBody: { required: true, content: { "application/json": { schema, example } } },
    responses: {
      "200": { description: "Any 2xx acknowledges the delivery; anything else, or no answer within the timeout, is retried" },
    },
  };
}

type JsonObject = Record<string, any>;

/** Fills parameter descriptions the schemas lack (query strings parsed by shared schemas). */
function describeParams(doc: JsonObject, ops: ApiOperation[]): void {
  for (const op of ops) {
    if (!op.paramDocs) continue;
    const params: JsonObject[] = doc.paths?.[op.path]?.[op.method]?.parameters ?? [];
    for (const p of params) {
      const text = op.paramDocs[p.name];
      if (text) p.description = text;
      if (text && p.schema && p.schema.description && p.schema.description === p.name) delete p.schema.description;
    }
  }
}

/**
 * zod's `.trim()` has no JSON Schema form, so a digit string read as `z.string().trim().regex(/^\d+$/)`
 * (a refund's or a cash-out's `amount`, `installments`, `expiresInDays`, an installment plan's
 * numbers: every `^\d+$` of the request schemas) is emitted as `^\d+$`, stricter than the server,
 * which trims first (" 1500 " is 1500). The pattern is widened to what is accepted; `\s` is the set
 * String.prototype.trim removes.
 */
export const TRIMMED_DIGITS_PATTERN = "^\\s*\\d+\\s*$";

function widenTrimmedDigitPatterns(node: unknown): void {
  if (!node || typeof node !== "object") return;
  const o = node as JsonObject;
  if (o.type === "string" && o.pattern === "^\\d+$") o.pattern = TRIMMED_DIGITS_PATTERN;
  for (const v of Object.values(o)) widenTrimmedDigitPatterns(v);
}

export function buildOpenApiDocument(env: Env = getEnv(), ops: ApiOperation[] = OPERATIONS): JsonObject {
  const paths: ZodOpenApiPathsObject = {};
  for (const op of ops) {
    paths[op.path] ??= {};
    (paths[op.path] as Record<string, ZodOpenApiOperationObject>)[op.method] = operationObject(op);
  }
  const list = [...guides(env), switchingGuide(env)];
  // OpenAPI 3.1's info.summary: zod-openapi 5 passes it through, but its InfoObject type does not list it.
  const info = {
    title: "Arara payments API",
    version: API_VERSION,
    summary: "PIX, boleto and card charges, cash-out, webhooks and hosted checkout for Brazil.",
    description: guidesMarkdown(list),
  };
  const doc = createDocument({
    openapi: "3.1.0",
    info,
    servers: [{ url: env.baseUrl, description: "This deployment" }],
    tags: API_TAGS.filter((t) => ops.some((o) => o.tag === t.name) || t.name === "Webhooks"),
    paths,
    webhooks: {
      transaction: {
        post: webhookOperation(
          "Transaction notification",
          "POSTed to the transaction's postbackUrl on each status change (creation of PIX and boleto sends `pending`; a card approval is sent as `approved` while the transaction reads `paid`).",
          TransactionNotificationSchema,
          {
            id: 42,
            type: "transaction",
            url: "https://shop.example/webhooks/arara",
            data: {
              id: 1000,
              status: "paid",
              amount: 1000,
              paidAmount: 1000,
              refundedAmount: 0,
              paidAt: "2026-06-01T12:05:00.000Z",
              paymentMethod: "pix",
              installments: 1,
              externalRef: "order-123",
              secureId: "5b1f7c1e-2f7d-4a51-9b0e-1c5d1f0e8a11",
              fee: { netAmount: 990, fixedAmount: 0, estimatedFee: 10 },
              pix: { qrcode: "00020126...6304ABCD", end2end: "E12345678202606011205abcdefghijk" },
              customer: { name: "Maria Silva", email: "maria@example.com", document: { type: "cpf", number: "11144477735" } },
              metadata: null,
              createdAt: "2026-06-01T12:00:00.000Z",
            },
          },
        ),
      },
      refund: {
        post: webhookOperation(
          "Refund notification (refunds at your own PSP)",
          "POSTed to the transaction's postbackUrl when a refund of a PIX received through your own PSP (acquirerType `api-pix`) reaches its end: `done` (the PSP returned the money) or `failed` (it did not: NAO_REALIZADO, or a refusal; what it held is available again, nothing was refunded). Such a refund is asked of the PSP after POST /transactions/{id}/refund answered, so this is how your backend learns its outcome. A distinct `type`: a receiver that handles only `transaction` events can ignore it safely, and no `paid` is sent again. `data` is the refund (its `id` is the refund's, not the transaction's), with `transactionId` and the `transaction` after the change as GET /transactions/{id} shows it. Written in the database transaction that closes the refund and moves its money, so it is sent once, even when the PSP's notification and the reconciliation both report the outcome, and delivered in order with the transaction's own events (a full refund's `refunded` comes first).",
          RefundNotificationSchema,
          {
            id: 44,
            type: "refund",
            url: "https://shop.example/webhooks/arara",
            data: {
              ...REFUND_EXAMPLE,
              transactionId: 1000,
              transaction: {
                id: 1000,
                status: "paid",
                amount: 1000,
                companyId: 1,
                installments: 1,
                paidAmount: 1000,
                refundedAmount: 0,
                refunds: [REFUND_EXAMPLE],
                pendingRefundAmount: 0,
                fee: { netAmount: 990, fixedAmount: 0, estimatedFee: 10 },
                paymentMethod: "pix",
                metadata: null,
                acquirerType: "api-pix",
                secureId: "5b1f7c1e-2f7d-4a51-9b0e-1c5d1f0e8a11",
                secureUrl: "https://pay.example/checkout/5b1f7c1e-2f7d-4a51-9b0e-1c5d1f0e8a11",
                externalId: "order-123",
                customer: { name: "Maria Silva", email: "maria@example.com", phone: null, externalRef: null, document: { type: "cpf", number: "11144477735" } },
                shipping: null,
                traceable: false,
                pix: { qrcode: "00020126...6304ABCD", expirationDate: "2026-06-03T12:00:00.000Z", end2end: "E12345678202606011205abcdefghijk" },
                paidAt: "2026-06-01T12:05:00.000Z",
                createdAt: "2026-06-01T12:00:00.000Z",
              },
            },
          },
        ),
      },
      cash_out: {
        post: webhookOperation(
          "Cash-out notification",
          "POSTed to the cash-out's postbackUrl on each status change (pending, processing, completed, failed).",
          CashOutNotificationSchema,
          {
            id: 43,
            type: "cash_out",
            url: "https://shop.example/webhooks/arara",
            data: {
              id: 100,
              status: "completed",
              amount: 5000,
              fee: 0,
              pixKey: "maria@example.com",
              pixKeyType: "email",
              source: "arara",
              description: "Saque semanal",
              externalRef: "payout-2026-06-01",
              end2endId: "E12345678202606011210abcdefghijk",
              failReason: null,
              createdAt: "2026-06-01T12:09:00.000Z",
              completedAt: "2026-06-01T12:10:00.000Z",
            },
          },
        ),
      },
    },
    components: {
      securitySchemes: {
        basicAuth: {
          type: "http",
          scheme: "basic",
          description: "HTTP Basic with your secret key: base64(pk:sk), base64(sk:pk), base64(sk:), base64(sk:x), base64(sk), or the key itself not base64-encoded (Basic sk_...).",
        },
        bearerAuth: {
          type: "http",
          scheme: "bearer",
          description: "Authorization: Bearer sk_... (the scheme in any case): the secret key itself, checked exactly as in HTTP Basic. A Bearer pk_... is refused (a public key alone).",
        },
        publicKey: { type: "apiKey", in: "query", name: "publicKey", description: "Your public key (pk_test_...), card tokenization only." },
      },
    },
  }) as JsonObject;
  describeParams(doc, ops);
  // Request bodies only (components): path ids are not trimmed.
  widenTrimmedDigitPatterns(doc.components?.schemas);
  addV1Dialect(doc);
  doc["x-guides"] = list;
  return doc;
}

const g = globalThis as unknown as { __araraOpenApi?: JsonObject };

/** The document of this deployment, built once. */
export function openApiDocument(): JsonObject {
  g.__araraOpenApi ??= buildOpenApiDocument();
  return g.__araraOpenApi;
}
