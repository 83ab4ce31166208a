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

/**
 * `instanceof` that holds when a class is bundled more than once. The production build splits server
 * code into chunks, and a module can be evaluated once per chunk that holds it: an ApiPixError thrown by
 * one copy of its class was not `instanceof` the copy another chunk imported, so a refusal by the PSP
 * came out as a 500 instead of its 422. Each branded class marks its prototype with a symbol from the
 * global registry (the same for every copy) and answers `instanceof` by that mark. A subclass of a
 * branded class must be branded too (it would inherit its parent's test otherwise).
 */
export function brandErrorClass(cls: abstract new (...args: never[]) => Error, name: string): void {
  const mark = Symbol.for(`arara.error.${name}`);
  Object.defineProperty(cls.prototype, mark, { value: true });
  Object.defineProperty(cls, Symbol.hasInstance, {
    value: (v: unknown) => typeof v === "object" && v !== null && (v as Record<symbol, unknown>)[mark] === true,
  });
}

brandErrorClass(ServiceError, "ServiceError");
