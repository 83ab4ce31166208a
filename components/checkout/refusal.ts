"use client";

import { useEffect } from "react";
import { LINK_REFUSAL } from "@/lib/domain/link-refusals";
import type { PayError } from "./payer-api";

/**
 * Why the page's pay route refused to make a charge without pointing at a field (409, or 422 with
 * no field errors), found out from the server's own status route: the page then tells the payer
 * what happened and that this attempt charged nothing (the route refuses before any charge).
 *
 * - paid: the order was paid meanwhile (another tab, or the same payment whose answer was lost);
 * - retried: a refused card was already tried again elsewhere, and that attempt is not paid;
 * - expired: the link's time ran out (the server renders the expired page);
 * - cardLimit: too many refused cards for this order (other methods may still be offered);
 * - linkLimit: the link took all the charges it may.
 */
export type Refusal = { kind: "paid" | "retried" | "expired" | "cardLimit" | "linkLimit"; secureId: string | null };

type Status = { kind?: string; status?: string; next?: string | null };

export async function statusOf(secureId: string): Promise<Status | null> {
  try {
    const res = await fetch(`/checkout/${secureId}/status`, { cache: "no-store", headers: { accept: "application/json" } });
    if (!res.ok) return null;
    return ((await res.json()) as { data?: Status }).data ?? null;
  } catch {
    return null;
  }
}

/**
 * A form page shown again from history (Back after paying) was rendered before: ask the server at once
 * and whenever the page is shown from the back-forward cache, and `refresh` the page when `stale` says
 * the status answered is no longer the one the form was drawn for. A page restored mid-payment also
 * gets its button back (`onRestored`).
 */
export function useStaleFormCheck(secureId: string, stale: (st: Status) => boolean, refresh: () => void, onRestored: () => void): void {
  useEffect(() => {
    let gone = false;
    const check = async () => {
      const st = await statusOf(secureId);
      if (!gone && st && stale(st)) refresh();
    };
    void check();
    const onShow = (e: PageTransitionEvent) => {
      if (!e.persisted) return;
      onRestored();
      void check();
    };
    window.addEventListener("pageshow", onShow);
    return () => {
      gone = true;
      window.removeEventListener("pageshow", onShow);
    };
    // Once per page: the callbacks are read when the page is shown, not followed as they change.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [secureId]);
}

const PAID = /already paid/i;

/** A payment link's refusal. */
export async function linkRefusal(linkId: string, error: PayError): Promise<Refusal> {
  // Both of the link's 409s say it is paid.
  if (error.status === 409) return { kind: "paid", secureId: null };
  const st = await statusOf(linkId);
  if (st?.status === "paid") return { kind: "paid", secureId: null };
  if (st?.status === "expired" || error.message === LINK_REFUSAL.expired) return { kind: "expired", secureId: null };
  return { kind: error.message === LINK_REFUSAL.cardLimit ? "cardLimit" : "linkLimit", secureId: null };
}

/**
 * A refused charge's "another card" refusal: follows the charge's retries to the newest; paid
 * there, or the link paid by another method, is "paid"; else another attempt was made elsewhere.
 */
export async function retryRefusal(secureId: string, error: PayError): Promise<Refusal> {
  if (error.status !== 409) return { kind: "cardLimit", secureId: null };
  let id = secureId;
  for (let hop = 0; hop < 8; hop++) {
    const st = await statusOf(id);
    if (!st) break;
    if (st.status === "paid") return { kind: "paid", secureId: id };
    if (!st.next) break;
    id = st.next;
  }
  if (PAID.test(error.message ?? "")) return { kind: "paid", secureId: null };
  return { kind: "retried", secureId: id === secureId ? null : id };
}
