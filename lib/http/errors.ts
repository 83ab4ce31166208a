import type { ErrorCode, FieldError } from "@/lib/services/errors";

/** The one table from error code to HTTP status. */
export const STATUS_BY_CODE: Record<ErrorCode, number> = {
  validation_error: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  idempotency_conflict: 409,
  conflict: 409,
  unprocessable: 422,
  insufficient_balance: 422,
  payload_too_large: 413,
  method_not_allowed: 405,
  rate_limited: 429,
  internal_error: 500,
};

export type ErrorBody = {
  success: false;
  status: number;
  message: string;
  code: ErrorCode;
  errors?: FieldError[];
  requestId?: string;
};

export function errorBody(code: ErrorCode, message: string, errors?: FieldError[], requestId?: string): ErrorBody {
  const body: ErrorBody = { success: false, status: STATUS_BY_CODE[code], message, code };
  if (errors && errors.length) body.errors = errors;
  if (requestId) body.requestId = requestId;
  return body;
}

export function errorResponse(
  code: ErrorCode,
  message: string,
  opts: { errors?: FieldError[]; requestId?: string; headers?: Record<string, string> } = {},
): Response {
  const headers: Record<string, string> = { "content-type": "application/json; charset=utf-8", ...opts.headers };
  if (opts.requestId) headers["x-request-id"] = opts.requestId;
  if (code === "unauthorized") headers["www-authenticate"] = 'Basic realm="api"';
  return new Response(JSON.stringify(errorBody(code, message, opts.errors, opts.requestId)), {
    status: STATUS_BY_CODE[code],
    headers,
  });
}
