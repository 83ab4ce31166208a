"use client";

import { EventActionButton, type EventActionProps } from "./EventActionButton";

/** Sends the event again now, as a manual attempt. */
export function RedeliverButton(props: EventActionProps) {
  return <EventActionButton {...props} label="Reenviar" pendingLabel="Reenviando…" />;
}
