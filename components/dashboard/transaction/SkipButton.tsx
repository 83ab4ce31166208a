"use client";

import { EventActionButton, type EventActionProps } from "./EventActionButton";

/**
 * Gives up a pending or failed event, so the later events of the transaction (delivered in order)
 * are sent at once. Asks first: the event will not be sent again automatically.
 */
export function SkipButton(props: EventActionProps) {
  return (
    <EventActionButton
      {...props}
      label="Desistir"
      pendingLabel="Desistindo…"
      confirm={`Desistir do evento #${props.eventId}? Ele não será mais enviado automaticamente e os eventos seguintes desta transação seguem.`}
    />
  );
}
