"use server";

import { dashboardAction, type ActionState } from "@/lib/auth/action";
import { redeliverFromForm, skipFromForm } from "../../webhook-event-form";

// The cash-out page's webhook buttons (app/dashboard/webhook-event-form.ts): no money moves.
const CASH_OUT = { subjectField: "cashOutId", pageOf: (id: string) => `/dashboard/cash-out/${id}` } as const;

/** Sends a webhook event of the cash-out again now (logged as a manual attempt). */
export async function redeliverCashOutEventAction(_prev: ActionState, formData: FormData): Promise<ActionState> {
  return dashboardAction((ctx) => redeliverFromForm(ctx, formData, CASH_OUT));
}

/** Gives a pending or failed webhook event of the cash-out up, releasing the events queued behind it. */
export async function skipCashOutEventAction(_prev: ActionState, formData: FormData): Promise<ActionState> {
  return dashboardAction((ctx) => skipFromForm(ctx, formData, CASH_OUT));
}
