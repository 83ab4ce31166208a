/**
 * What every response schema is built from: the error body, the success envelope, pagination, and
 * the small field helpers (centavos, ISO dates, a CPF/CNPJ document).
 */
import { z } from "zod";
import { STATUS_BY_CODE } from "@/lib/http/errors";
import type { ErrorCode } from "@/lib/services/errors";

export const ERROR_CODES = Object.keys(STATUS_BY_CODE) as ErrorCode[];

export const centavos = (description: string) => z.number().int().meta({ description: `${description}, in centavos` });
export const isoDate = (description: string) => z.string().meta({ description: `${description} (ISO 8601)`, format: "date-time" });

export const FieldErrorSchema = z
  .object({
    field: z.string().meta({ description: "Dotted path of the field, e.g. customer.document.number; `body` for the whole body" }),
    message: z.string().meta({ description: "What is wrong with it, in one phrase" }),
  })
  .meta({ id: "FieldError" });

export const ErrorBodySchema = z
  .object({
    success: z.literal(false),
    status: z.number().int().meta({ description: "The HTTP status, repeated" }),
    message: z.string().meta({ description: "One readable sentence" }),
    code: z.enum(ERROR_CODES as [ErrorCode, ...ErrorCode[]]).meta({
      description: ERROR_CODES.map((c) => `${c} (${STATUS_BY_CODE[c]})`).join(", "),
    }),
    errors: z.array(FieldErrorSchema).optional().meta({ description: "Field-level problems (validation errors)" }),
    requestId: z.string().optional().meta({ description: "Quote it to support; also in the X-Request-Id header" }),
  })
  .meta({
    id: "Error",
    description: "Every error of the API has this body; `code` is stable, `message` is for people.",
    example: {
      success: false,
      status: 400,
      message: "The request is invalid: customer.document.number is not a valid CPF.",
      code: "validation_error",
      errors: [{ field: "customer.document.number", message: "is not a valid CPF" }],
      requestId: "0f8e4bd6-0c61-4b0f-8d0a-6ad1a3a5d0f1",
    },
  });

/** The spec's success envelope around `data`. */
export function envelopeOf<T extends z.ZodType>(data: T, opts: { id: string; message?: boolean; status: number; description?: string }) {
  return z
    .object({
      success: z.literal(true),
      ...(opts.message ? { message: z.string().meta({ description: "States what was done (present on creation)" }) } : {}),
      status: z.literal(opts.status).meta({ description: "The HTTP status, repeated" }),
      data,
    })
    .meta({ id: opts.id, ...(opts.description ? { description: opts.description } : {}) });
}

export const PaginationSchema = z
  .object({
    page: z.number().int(),
    limit: z.number().int(),
    total: z.number().int().meta({ description: "Rows matching the filters, counted up to 1000 (see totalCapped)" }),
    totalPages: z.number().int(),
    totalCapped: z.literal(true).optional().meta({ description: "Present when more rows match than the count's cap: total is then the cap, a floor" }),
    nextCursor: z.string().nullable().optional().meta({ description: "With the cursor parameter only: the next page's cursor, null on the last page" }),
  })
  .meta({ id: "Pagination" });

export const DocumentSchema = z
  .object({
    type: z.enum(["cpf", "cnpj"]),
    number: z.string().meta({ description: "Digits only (the alphanumeric CNPJ keeps its letters)" }),
  });

/** A page of a list endpoint: `{ data, pagination }`. */
export function pageOf<T extends z.ZodType>(item: T, id: string) {
  return z.object({ data: z.array(item), pagination: PaginationSchema }).meta({ id });
}

export const HealthSchema = z
  .object({ status: z.enum(["ok", "degraded"]), database: z.enum(["pglite", "postgres"]) })
  .meta({ id: "Health" });
