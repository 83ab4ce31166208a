import type { z } from "zod";
import type { ErrorCode } from "@/lib/services/errors";

export type HttpMethod = "get" | "post" | "put" | "patch" | "delete";

export type ApiResponse = {
  description: string;
  /** Zod schema of the body; omitted for bodies that are not JSON (then `contentType` + `text`). */
  schema?: z.ZodType;
  contentType?: string;
  /** For non-JSON bodies: a plain description of the text returned. */
  text?: string;
  example?: unknown;
  headers?: Record<string, string>;
};

/**
 * One operation of the API reference. `lib/openapi/document.ts` turns the list into the OpenAPI 3.1
 * document; tests/integration/openapi-routes.test.ts fails when a route file and this list disagree.
 */
export type ApiOperation = {
  method: HttpMethod;
  /** OpenAPI form: /api/v1/transactions/{id} */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tag: string;
  /** secretKey: HTTP Basic with the sk_ key; publicKey: ?publicKey=pk_...; none: public. */
  auth: "secretKey" | "publicKey" | "none";
  /** Honours the Idempotency-Key header. */
  idempotent?: boolean;
  pathParams?: z.ZodObject;
  query?: z.ZodObject;
  /** Descriptions of query/path parameters, where the schema has none. */
  paramDocs?: Record<string, string>;
  body?: {
    schema: z.ZodType;
    description?: string;
    contentType?: string;
    /** A valid body: shown in the reference and used as the fuzzing seed (tests check it is accepted). */
    example: unknown;
    /** More valid bodies, by name. */
    examples?: Record<string, unknown>;
  };
  /** Success responses by status. */
  responses: Record<number, ApiResponse>;
  /** Error codes this operation can answer besides the automatic ones (auth, validation, 429, 500). */
  errors?: ErrorCode[];
  /** Sandbox-only, internal or other remarks shown in the reference. */
  notes?: string[];
};
