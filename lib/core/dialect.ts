/**
 * The API's two dialects: `api` (`/api/v1`, the envelope { success, status, data }) and `v1` (`/v1`,
 * the bare resources the clients of this gateway family read). A transaction records the dialect it
 * was created in; its notifications use the same one. The HTTP side lives in lib/http/dialect.ts.
 */
export type Dialect = "api" | "v1";

export const DIALECTS: readonly Dialect[] = ["api", "v1"];
