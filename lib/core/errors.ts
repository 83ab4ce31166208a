export type ErrorCode =
  | "validation_error"
  | "unauthorized"
  | "forbidden"
  | "not_found"
  | "idempotency_conflict"
  | "conflict"
  | "unprocessable"
  | "insufficient_balance"
  | "payload_too_large"
  | "method_not_allowed"
  | "rate_limited"
  | "internal_error";

export type FieldError = { field: string; message: string };

/** A failure a client can act on; the http kit maps `code` to a status with one table. */
export class ServiceError extends Error {
  readonly code: ErrorCode;
  readonly errors?: FieldError[];
  /** The same sentence in Portuguese for the dashboard's forms, when the generic one for `code` would hide its figures. */
  readonly messagePt?: string;
  constructor(code: ErrorCode, message: string, errors?: FieldError[], opts: { messagePt?: string } = {}) {
    super(message);
    this.name = "ServiceError";
    this.code = code;
    this.errors = errors;
    this.messagePt = opts.messagePt;
  }
}

export const notFound = (what: string) => new ServiceError("not_found", `${what} not found.`);
export const validation = (message: string, errors?: FieldError[]) => new ServiceError("validation_error", message, errors);
export const unprocessable = (message: string) => new ServiceError("unprocessable", message);
