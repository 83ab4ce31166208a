/**
 * The /v1 dialect in the reference: the guide "Switching from another gateway of this API family",
 * and the /v1 twin of every /api/v1 operation (bare success bodies, the family's request forms), the
 * family-only paths and the family's notification body. Built from the finished /api/v1 document, so
 * the two dialects cannot drift apart in the reference either.
 */
import type { Env } from "@/lib/env";
import { BROWSER_ALIASES } from "@/lib/browser/arara-js";
import { UNKNOWN_IP, V1_BLANK_AS_ABSENT, V1_DEFAULT_TANGIBLE } from "@/lib/http/dialect-leniency";
import { PIX_EXPIRES_IN_DAYS } from "@/lib/schemas/transactions";
import { REFUSAL_REASONS as REFUSAL_CODES } from "@/lib/processors/types";
import type { Guide } from "./guides";

type Json = Record<string, any>;

export const V1_TAG = "/v1 dialect (clients of the gateway family)";

/** The optional fields /v1 takes as absent when sent as "" (lib/http/dialect-leniency.ts). */
const V1_BLANK_FIELDS = [
  ...V1_BLANK_AS_ABSENT.top,
  ...V1_BLANK_AS_ABSENT.shipping.map((f) => `shipping.${f}`),
  ...V1_BLANK_AS_ABSENT.customer.map((f) => `customer.${f}`),
  ...V1_BLANK_AS_ABSENT.item.map((f) => `items[].${f}`),
  ...V1_BLANK_AS_ABSENT.card.map((f) => `card.${f}`),
]
  .map((f) => `\`${f}\``)
  .join(", ");

const V1_TAG_DESCRIPTION =
  "The same operations under /v1, for store code written for another gateway of this API family: success bodies are the bare resource (no envelope), errors and status codes as in /api/v1. See the guide \"Switching from another gateway of this API family\".";

/** The family client behaviours /v1 accepts, each with the test that names it (docs/switching.md repeats them). */
export const V1_BEHAVIOURS: { behaviour: string; test: string }[] = [
  { behaviour: "Base URL https://<host>/v1; success bodies are the bare resource: `tx.id`, `tx.status`, `tx.pix.qrcode` at the top level", test: "creates a PIX sale and reads id, status and pix.qrcode at the top level" },
  { behaviour: "Polling `GET /v1/transactions/{id}` until `status` is the string `paid`", test: "polls GET /v1/transactions/{id} and sees the string \"paid\"" },
  { behaviour: "A refused card read from the top-level `status` (`refused`) and `refusedReason`", test: "a refused card is recognisable from the top-level status string" },
  { behaviour: "`refusedReason?.description` / `?.message`: an object `{ code, acquirerCode, description, message, createdAt }`, null when not refused", test: "refusedReason is an object { code, acquirerCode, description, message, createdAt }" },
  { behaviour: "Postbacks `{ id, type, objectId, url, data }`, `data` the full transaction, a card approval `paid`", test: "sends the card postback in the family's shape" },
  { behaviour: "`ip` left out on card charges: the caller's address is recorded", test: "ip is optional for cards" },
  { behaviour: `\`items[].tangible\` left out: ${V1_DEFAULT_TANGIBLE} (digital goods or services)`, test: "items[].tangible is optional and defaults to false" },
  { behaviour: "`items[].tangible` as 1/0 or \"true\"/\"false\"", test: "items[].tangible as 1/0 or \"true\"/\"false\" is read as a boolean" },
  { behaviour: `\`""\` (or spaces) for an optional text field is the field left out: ${V1_BLANK_FIELDS}`, test: "customer.phone \"\" and postbackUrl \"\" are taken as absent" },
  { behaviour: "`metadata` returned as it was sent: an object as that object (`tx.metadata?.orderId`), a string as that string; on payment links too", test: "metadata sent as an object is read back as that object on creation, read, list, move and postback" },
  { behaviour: "`pix.expirationDate` the day `AAAA-MM-DD` (Brasília), `pix.expiresAt` the full time", test: "pix.expirationDate is the day AAAA-MM-DD in Brasília and expiresAt the full time" },
  { behaviour: "`boleto.expirationDate` (the due date) beside `dueDate`", test: "boleto.expirationDate is the due date AAAA-MM-DD beside dueDate" },
  { behaviour: "`card.expirationMonth` / `expirationYear` as integers", test: "card.expirationMonth and expirationYear are integers" },
  { behaviour: "`pix.expiresInSeconds` instead of `pix.expiresInDays` (rounded up to whole days)", test: "pix.expiresInSeconds is accepted beside expiresInDays" },
  { behaviour: "`items[].name` and `items[].price` for `title` and `unitPrice` (both names with different values: 400)", test: "items[].name and price are title and unitPrice" },
  { behaviour: "The delivery address sent only as `customer.address`: the shipping address when the body has none", test: "customer.address is the shipping address when the body has none" },
  { behaviour: "Amounts, unit prices and quantities as numeric strings; `customer.document` as the bare number", test: "amounts, unit prices and quantities as numeric strings" },
  { behaviour: "Card token with `expMonth` / `expYear`; the token as a JSON string when `Accept` prefers JSON", test: "card-token takes expMonth/expYear and answers a JSON string" },
  { behaviour: "`GET /v1/status` answers `{ \"status\": \"online\" }` without credentials", test: "GET /v1/status answers { status: \"online\" } without credentials" },
  { behaviour: "`GET /v1/balance/available` is the balance", test: "GET /v1/balance/available is the balance, bare" },
  { behaviour: "`<script src=\"https://<host>/v1/js\">`", test: "GET /v1/js serves the browser script" },
  { behaviour: `Browser globals ${BROWSER_ALIASES.map((n) => `\`${n}\``).join(", ")}: awaited \`setPublicKey\`, \`setTestMode\`, \`encrypt\` with \`expMonth\` / \`expYear\``, test: "Payout, JunglePagamentos and PaymentGateway" },
  { behaviour: "HTTP Basic `base64(sk_...:x)` (as on /api/v1)", test: "creates a PIX sale and reads id, status and pix.qrcode at the top level" },
  { behaviour: "`Authorization: Basic sk_...` with the key not base64-encoded", test: "Authorization: Basic with the secret key not base64-encoded" },
  { behaviour: "An `Idempotency-Key` replays the bare answer", test: "an Idempotency-Key replays the same bare answer" },
];

export function switchingGuide(env: Env): Guide {
  const base = env.baseUrl.replace(/\/$/, "");
  return {
    id: "switching",
    title: "Switching from another gateway of this API family",
    paragraphs: [
      `Store code written for another white-label gateway of this API family runs unchanged against Arara: change the base URL to \`${base}/v1\` and the two keys (the secret key \`sk_...\` for your server, the public key \`pk_...\` for the browser script). Under /v1 every operation of /api/v1 exists with the same path after the prefix, the same authentication (every Basic form, \`sk:x\` included, and \`Basic sk_...\` with the key not base64-encoded), Idempotency-Key, rate limit, validation and HTTP status codes.`,
      "What differs from /api/v1: a success body is the bare resource — a transaction is `{ id, status, amount, pix, secureUrl, ... }` at the top level, one shape on creation, reads, lists, moves and postbacks (the Transaction resource plus `fees`, `fee`, `card`, `boleto` when they apply, `refusedReason`, `items`, `ip`, `postbackUrl`, `externalRef`, `updatedAt`: the TransactionV1 schema), a list is `{ data, pagination }`, the company, balance, cash-out and payment link likewise bare. Errors keep the one error body `{ success: false, status, message, code, errors?, requestId? }`: a client tells them apart by the HTTP status.",
      "Field shapes of the family under /v1 (the contract's under /api/v1): `metadata` is returned as it was sent (an object or array as that JSON value, a string as that string; on payment links too), not as its JSON text; `pix.expirationDate` is the day the QR code expires, `AAAA-MM-DD` in Brasília time, and `pix.expiresAt` the full time (what /api/v1 shows as expirationDate); `boleto.expirationDate` is the due date beside `dueDate`; `refusedReason` is an object `{ code, acquirerCode, description, message, createdAt }` (`code` the contract's string, `description` and `message` the reason in Portuguese as the hosted checkout shows it), null when the charge was not refused; `card.expirationMonth` and `expirationYear` are integers (3, 2030).",
      `What /v1 accepts besides the /api/v1 request: \`ip\` may be left out on card charges (the caller's address is recorded: the first X-Forwarded-For address, else X-Real-IP, else \`${UNKNOWN_IP}\`); \`items[].tangible\` may be left out (default \`${V1_DEFAULT_TANGIBLE}\`: digital goods or services); \`pix.expiresInSeconds\` (1 to ${PIX_EXPIRES_IN_DAYS.max * 86_400}) instead of \`pix.expiresInDays\`, rounded up to whole days; amounts, unit prices and quantities as numeric strings; \`items[].name\` / \`items[].price\` for \`title\` / \`unitPrice\`; \`customer.address\` as the shipping address when the body has none; \`customer.document\` as the bare number (11 digits: CPF, else CNPJ); \`items[].tangible\` as 1/0 or "true"/"false"; \`""\` (or spaces) for an optional text field is the field left out (${V1_BLANK_FIELDS}). The card token route takes \`expMonth\` / \`expYear\` and answers the token as a JSON string (\`"ct_..."\`, \`application/json\`) when \`Accept\` prefers JSON to text. \`GET /v1/balance/available\` is the balance; \`GET /v1/status\` answers \`{ "status": "online" }\` without credentials.`,
      "Postbacks: a transaction created through /v1 is notified in the family's shape, `{ id, type, objectId, url, data }`: `id` the notification id (also the `webhook-id` header), `type` `transaction`, `objectId` the transaction id as text, `url` the postbackUrl, `data` the full transaction as /v1 returns it. A card approval is `data.status: \"paid\"` (on /api/v1 it is `approved`). Signatures and retries are the same. Transactions created through /api/v1 keep the contract's body.",
      `The browser script, \`<script src="${base}/v1/js">\` (or /api/v1/js), defines \`Arara\` and the family's names ${BROWSER_ALIASES.map((n) => `\`${n}\``).join(", ")}: \`setPublicKey(pk)\` (may be awaited), \`setTestMode(bool)\` (accepted; the key alone says sandbox or live), \`encrypt({ number, holderName, expMonth | expirationMonth, expYear | expirationYear, cvv })\` resolving to the token string to send as \`card.hash\`.`,
    ],
    table: {
      columns: ["Test that names it (tests/integration/v1-dialect.test.ts, v1-family-shapes.test.ts)", "Family client behaviour accepted on /v1"],
      rows: V1_BEHAVIOURS.map((b) => [b.test, b.behaviour]),
    },
    code: `curl -u "sk_test_...:x" ${base}/v1/transactions -H "content-type: application/json" -d '{"paymentMethod":"pix","amount":1990,"customer":{"name":"Maria Silva","email":"maria@example.com","document":{"type":"cpf","number":"11144477735"}},"items":[{"title":"Curso","unitPrice":1990,"quantity":1}]}'
# -> 201 { "id": 1000, "status": "pending", "amount": 1990, "pix": { "qrcode": "000201...", "expirationDate": "2026-06-03", "expiresAt": "2026-06-03T12:00:00.000Z" }, "secureUrl": "...", ... }`,
  };
}

function resolve(doc: Json, schema: Json | undefined): Json {
  let s = schema ?? {};
  for (let i = 0; i < 10 && s.$ref; i++) s = doc.components?.schemas?.[String(s.$ref).replace("#/components/schemas/", "")] ?? {};
  return s;
}

/** The success response of /v1: the envelope's `data` schema and example. */
function bareResponse(doc: Json, response: Json): Json {
  const out = structuredClone(response);
  const json = out.content?.["application/json"];
  if (!json) return out;
  const envelope = resolve(doc, json.schema);
  if (envelope.properties?.data && envelope.properties?.success) {
    const data = envelope.properties.data;
    json.schema = data.$ref && V1_REFS[data.$ref] ? { $ref: V1_REFS[data.$ref] } : data;
    if (json.example && typeof json.example === "object" && "data" in json.example) json.example = json.example.data;
  }
  return out;
}

/** CreateTransaction as /v1 reads it: ip, items[].tangible optional; pix.expiresInSeconds. */
function v1CreateTransactionSchema(doc: Json): Json {
  const schemas = doc.components.schemas;
  const base = structuredClone(resolve(doc, { $ref: "#/components/schemas/CreateTransaction" }));
  if (base.properties?.items) base.properties.items = { ...base.properties.items, items: { $ref: "#/components/schemas/ItemV1" } };
  if (base.properties?.ip) base.properties.ip.description = "The payer's IP (IPv4 or IPv6). /v1: optional for credit_card; the caller's address is recorded when absent";
  const pix = resolve(doc, base.properties?.pix);
  const pixObject = (pix.anyOf ?? pix.oneOf ?? [pix]).find((p: Json) => p.type === "object" || p.properties);
  if (pixObject?.properties) {
    pixObject.properties.expiresInSeconds = {
      type: ["integer", "string"],
      description: `/v1: seconds until the QR code expires (1 to ${PIX_EXPIRES_IN_DAYS.max * 86_400}), rounded up to whole days; instead of expiresInDays`,
    };
  }
  base.description = `${base.description ?? ""} /v1 accepts also the family's forms (see the guide "Switching from another gateway of this API family"), among them "" (or spaces) for an optional text field, taken as the field left out: ${V1_BLANK_FIELDS}.`.trim();
  schemas.CreateTransactionV1 = base;
  return { $ref: "#/components/schemas/CreateTransactionV1" };
}

const FAMILY_NOTIFICATION_EXAMPLE = {
  id: 42,
  type: "transaction",
  objectId: "1000",
  url: "https://shop.example/webhooks/arara",
  data: {
    id: 1000,
    companyId: 1,
    status: "paid",
    amount: 5000,
    paidAmount: 5000,
    refundedAmount: 0,
    paymentMethod: "credit_card",
    installments: 1,
    acquirerType: "sandbox",
    secureId: "5b1f7c1e-2f7d-4a51-9b0e-1c5d1f0e8a11",
    secureUrl: "https://pay.example/checkout/5b1f7c1e-2f7d-4a51-9b0e-1c5d1f0e8a11",
    externalId: null,
    externalRef: "order-123",
    postbackUrl: "https://shop.example/webhooks/arara",
    ip: "203.0.113.7",
    customer: { name: "Maria Silva", email: "maria@example.com", phone: null, externalRef: null, document: { type: "cpf", number: "11144477735" } },
    shipping: null,
    traceable: false,
    items: [{ title: "Camiseta", unitPrice: 5000, quantity: 1, tangible: true }],
    card: { brand: "visa", holderName: "MARIA SILVA", firstDigits: "411111", lastDigits: "1111", expirationMonth: 12, expirationYear: 2034 },
    // The default plan: 3.99% of 50,00 (1.995 -> 2,00, half up) + 0,39.
    fee: { netAmount: 4761, fixedAmount: 39, estimatedFee: 239 },
    fees: 239,
    refusedReason: null,
    metadata: { orderId: "A1" },
    paidAt: "2026-06-01T12:00:01.000Z",
    createdAt: "2026-06-01T12:00:00.000Z",
    updatedAt: "2026-06-01T12:00:01.000Z",
  },
};

/** Metadata under /v1 (lib/core/transaction-resource.ts metadataAsSent): any JSON value, as it was sent. */
const METADATA_AS_SENT = {
  description:
    "As it was sent at creation: an object or an array comes back as that JSON value, a string as that same string; null when none was sent. (/api/v1 returns the stored text: an object as its JSON text. Transactions and links created before this was kept read back as the text.)",
};

const DAY_PATTERN = "^\\d{4}-\\d{2}-\\d{2}$";

/** The family's shapes of a transaction's fields under /v1 (lib/core/transaction-resource.ts v1TransactionResource). */
function v1FieldShapes(schemas: Json, v1: Json): void {
  v1.properties.metadata = METADATA_AS_SENT;

  const pix = structuredClone(v1.properties.pix ?? { type: "object", properties: {}, required: [] });
  pix.properties = {
    ...pix.properties,
    expirationDate: {
      type: ["string", "null"],
      format: "date",
      pattern: DAY_PATTERN,
      description: "The day the QR code expires, YYYY-MM-DD in Brasília (America/Sao_Paulo): the family's date (`new Date(expirationDate + \"T23:59:59\")`). The full time is expiresAt",
    },
    expiresAt: { type: ["string", "null"], format: "date-time", description: "When the QR code expires (ISO 8601): what /api/v1 shows as pix.expirationDate" },
  };
  pix.required = [...new Set([...(pix.required ?? []), "expiresAt"])];
  v1.properties.pix = pix;

  const boleto = structuredClone(resolveIn(schemas, "Boleto"));
  boleto.properties = {
    ...boleto.properties,
    expirationDate: { type: ["string", "null"], format: "date", pattern: DAY_PATTERN, description: "The due date, YYYY-MM-DD: the same as dueDate, under the family's name" },
  };
  boleto.required = [...new Set([...(boleto.required ?? []), "dueDate", "expirationDate"])];
  schemas.BoletoV1 = boleto;
  v1.properties.boleto = { $ref: "#/components/schemas/BoletoV1", description: "Boleto only" };

  const card = structuredClone(resolveIn(schemas, "CardSummaryOutput", "CardSummary"));
  card.properties = {
    ...card.properties,
    expirationMonth: { type: ["integer", "null"], description: "1 to 12 (an integer: 3, not \"03\"; /api/v1 shows the string)" },
    expirationYear: { type: ["integer", "null"], description: "Four digits (an integer: 2030; /api/v1 shows the string)" },
  };
  schemas.CardSummaryV1 = card;
  v1.properties.card = { $ref: "#/components/schemas/CardSummaryV1", description: "Card only" };

  v1.properties.refusedReason = {
    description:
      "Why the card was refused, as the family's object; null when the charge was not refused. (/api/v1 shows `code` alone, as a string, on refused cards only.)",
    anyOf: [
      {
        type: "object",
        properties: {
          code: { type: "string", enum: [...REFUSAL_CODES], description: "Arara's code: the string /api/v1 shows" },
          acquirerCode: { type: "string", description: "What the acquirer answered" },
          description: { type: "string", description: "The reason in Portuguese, the words the hosted checkout shows the payer" },
          message: { type: "string", description: "The same words as description" },
          createdAt: { type: "string", format: "date-time", description: "When the card was refused (ISO 8601)" },
        },
        required: ["code", "acquirerCode", "description", "message", "createdAt"],
        additionalProperties: false,
      },
      { type: "null" },
    ],
  };
}

function resolveIn(schemas: Json, ...names: string[]): Json {
  for (const n of names) if (schemas[n]) return schemas[n];
  return { type: "object", properties: {} };
}

/** Checkout (payment link) as /v1 shows it: metadata as it was sent. */
function addV1CheckoutSchemas(doc: Json): void {
  const schemas = doc.components.schemas;
  if (!schemas.Checkout) return;
  const v1 = structuredClone(schemas.Checkout);
  v1.properties = { ...v1.properties, metadata: METADATA_AS_SENT };
  v1.description = `${v1.description ?? "A payment link"} as /v1 shows it (metadata as it was sent).`;
  schemas.CheckoutV1 = v1;
  const list = structuredClone(schemas.CheckoutList ?? {});
  if (list.properties?.data) list.properties.data = { type: "array", items: { $ref: "#/components/schemas/CheckoutV1" } };
  schemas.CheckoutListV1 = list;
}

/**
 * TransactionV1: how /v1 shows a transaction everywhere (lib/http/dialect-views.ts): the created
 * transaction plus the family's fee, items, ip, externalRef and updatedAt, in the family's field
 * shapes (v1FieldShapes); TransactionListV1 of them.
 */
function addV1TransactionSchemas(doc: Json): void {
  const schemas = doc.components.schemas;
  const item = structuredClone(resolve(doc, { $ref: "#/components/schemas/Item" }));
  item.required = (item.required ?? []).filter((r: string) => r !== "tangible");
  if (item.properties?.tangible) {
    item.properties.tangible.description = `${item.properties.tangible.description ?? ""} /v1: optional, default ${V1_DEFAULT_TANGIBLE}; a request may also send 1/0 or "true"/"false"`.trim();
  }
  item.properties = {
    ...item.properties,
    name: { type: "string", description: "/v1 requests: another name for title (sent alone, or with the same value)" },
    price: { type: ["integer", "string"], description: "/v1 requests: another name for unitPrice (sent alone, or with the same value)" },
  };
  schemas.ItemV1 = item;
  const created = schemas.CreatedTransaction;
  if (!created) return;
  const v1 = structuredClone(created);
  v1.description = "A transaction as /v1 shows it (creation, reads, lists, moves, postbacks).";
  const nullableString = (description: string) => ({ type: ["string", "null"], description });
  v1.properties = {
    ...v1.properties,
    postbackUrl: nullableString("The webhook URL"),
    externalRef: nullableString("Your identifier (also as externalId)"),
    ip: nullableString("The payer's IP as recorded (the caller's address when the request had none)"),
    items: { type: "array", items: { $ref: "#/components/schemas/ItemV1" }, description: "The items" },
    updatedAt: { type: "string", description: "Last change (ISO 8601)" },
  };
  v1FieldShapes(schemas, v1);
  v1.required = [...new Set([...(v1.required ?? []), "fee", "postbackUrl", "externalRef", "ip", "items", "updatedAt", "fees", "refusedReason"])];
  schemas.TransactionV1 = v1;
  const list = structuredClone(schemas.TransactionList ?? {});
  if (list.properties?.data) list.properties.data = { type: "array", items: { $ref: "#/components/schemas/TransactionV1" } };
  schemas.TransactionListV1 = list;
}

const V1_REFS: Record<string, string> = {
  "#/components/schemas/Transaction": "#/components/schemas/TransactionV1",
  "#/components/schemas/CreatedTransaction": "#/components/schemas/TransactionV1",
  "#/components/schemas/TransactionList": "#/components/schemas/TransactionListV1",
  "#/components/schemas/Checkout": "#/components/schemas/CheckoutV1",
  "#/components/schemas/CheckoutList": "#/components/schemas/CheckoutListV1",
};

/** Adds the /v1 twins, the family-only paths, the tag and the family's notification to the document. */
export function addV1Dialect(doc: Json): void {
  const paths: Json = doc.paths;
  addV1TransactionSchemas(doc);
  addV1CheckoutSchemas(doc);
  const twins: Json = {};
  for (const [path, item] of Object.entries<Json>(paths)) {
    // /api/v1/psp/** is called by a merchant's PSP, never by a family client: no /v1 twin.
    if (!path.startsWith("/api/v1/") || path.startsWith("/api/v1/psp/")) continue;
    const v1Path = path.replace(/^\/api\/v1/, "/v1");
    twins[v1Path] = {};
    for (const [method, op] of Object.entries<Json>(item)) {
      const twin = structuredClone(op);
      twin.operationId = `${op.operationId}V1`;
      twin.tags = [V1_TAG];
      twin.description = `${op.description ? `${op.description}\n\n` : ""}The /v1 twin of \`${method.toUpperCase()} ${path}\`: the success body is the bare resource.`;
      for (const [status, response] of Object.entries<Json>(twin.responses ?? {})) {
        if (status.startsWith("2")) twin.responses[status] = bareResponse(doc, response);
      }
      if (v1Path === "/v1/transactions" && method === "post" && twin.requestBody?.content?.["application/json"]) {
        twin.requestBody.content["application/json"].schema = v1CreateTransactionSchema(doc);
      }
      if (v1Path === "/v1/card-token" && method === "post") {
        twin.responses["200"].content["application/json"] = {
          schema: { type: "string", description: "The token as a JSON string, when Accept prefers application/json to text/plain" },
          example: "ct_...",
        };
        twin.description += " Takes `expMonth` / `expYear` as well as `expirationMonth` / `expirationYear`.";
      }
      twins[v1Path][method] = twin;
    }
  }
  const balance = twins["/v1/balance"]?.get;
  if (balance) {
    twins["/v1/balance/available"] = {
      get: { ...structuredClone(balance), operationId: "getBalanceAvailableV1", summary: "Balance (alias)", description: "The family's path for the balance: the same as `GET /v1/balance`." },
    };
  }
  twins["/v1/status"] = {
    get: {
      operationId: "getStatusV1",
      summary: "Service status",
      description: "The family's liveness probe: no credentials.",
      tags: [V1_TAG],
      security: [],
      responses: {
        "200": {
          description: "The API answers",
          content: {
            "application/json": {
              schema: { type: "object", properties: { status: { type: "string", const: "online" } }, required: ["status"] },
              example: { status: "online" },
            },
          },
        },
      },
    },
  };
  Object.assign(paths, twins);
  doc.tags = [...(doc.tags ?? []), { name: V1_TAG, description: V1_TAG_DESCRIPTION }];

  const contract = doc.webhooks?.transaction?.post;
  if (contract) {
    doc.webhooks.transaction_v1 = familyNotification(contract, {
      summary: "Transaction notification (/v1 dialect)",
      description:
        "For a transaction created through /v1: POSTed to its postbackUrl on each status change in the family's shape. `objectId` is the transaction id as text; `data` is the full transaction as /v1 returns it; a card approval is `paid`. Same headers, signature and retries as the /api/v1 notification.",
      type: "transaction",
      objectId: "The transaction id, as text",
      data: { $ref: "#/components/schemas/TransactionV1", description: "The transaction as /v1 returns it, status as of this event (a card approval is paid)" },
      example: FAMILY_NOTIFICATION_EXAMPLE,
    });
  }

  const refund = doc.webhooks?.refund?.post;
  const refundData = doc.components?.schemas?.RefundEventData;
  if (refund && refundData) {
    const v1Data = structuredClone(refundData);
    v1Data.properties = { ...v1Data.properties, transaction: { $ref: "#/components/schemas/TransactionV1" } };
    v1Data.description = "A `refund` notification's data under /v1: the refund, its transactionId, and the transaction as /v1 returns it.";
    doc.components.schemas.RefundEventDataV1 = v1Data;
    doc.webhooks.refund_v1 = familyNotification(refund, {
      summary: "Refund notification (/v1 dialect)",
      description:
        "For a transaction created through /v1 whose refund at the merchant's own PSP reached its end (done or failed), in the family's shape: `objectId` is the refund's id as text (type `refund`, not a transaction), `data` the refund with `transactionId` and the `transaction` as /v1 returns it. Same headers, signature, retries and order as the transaction's notifications.",
      type: "refund",
      objectId: "The refund's id, as text",
      data: { $ref: "#/components/schemas/RefundEventDataV1", description: "The refund, its transactionId, and the transaction as /v1 returns it" },
    });
  }
}

/** A notification in the family's shape `{ id, type, objectId, url, data }`, made from the contract's. */
function familyNotification(contract: any, o: { summary: string; description: string; type: string; objectId: string; data: Record<string, string>; example?: unknown }) {
  return {
    post: {
      ...structuredClone(contract),
      summary: o.summary,
      description: o.description,
      requestBody: {
        required: true,
        content: {
          "application/json": {
            schema: {
              type: "object",
              properties: {
                id: { type: "integer", description: "Notification id (the webhook-id header)" },
                type: { type: "string", const: o.type },
                objectId: { type: "string", description: o.objectId },
                url: { type: ["string", "null"], description: "The postbackUrl" },
                data: o.data,
              },
              required: ["id", "type", "objectId", "url", "data"],
            },
            ...(o.example === undefined ? {} : { example: o.example }),
          },
        },
      },
    },
  };
}
