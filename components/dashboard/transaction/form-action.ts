import type { ActionState } from "@/lib/auth/action";

/** A server action bound to a form through `useActionState` (the page passes the route's actions in). */
export type FormAction = (prev: ActionState, formData: FormData) => Promise<ActionState>;
