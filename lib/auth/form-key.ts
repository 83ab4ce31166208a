/** The hidden field that carries a money form's idempotency key (lib/auth/idempotent-action.ts). */
export const FORM_KEY_FIELD = "idempotencyKey";
