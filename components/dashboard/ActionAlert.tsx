import type { ActionState } from "@/lib/auth/action";
import ui from "./ui.module.css";

/** The outcome of a dashboard form action: a polite status on success, an alert on failure. */
export function ActionAlert({ state, errorText }: { state: ActionState<unknown>; errorText?: string }) {
  if (state.status === "ok") {
    return (
      <div className={`${ui.alert} ${ui.alertSuccess}`} role="status">
        {state.message}
      </div>
    );
  }
  if (state.status === "error") {
    return (
      <div className={`${ui.alert} ${ui.alertError}`} role="alert">
        {errorText ?? state.message}
      </div>
    );
  }
  return null;
}
