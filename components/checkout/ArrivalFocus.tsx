"use client";

import { useEffect } from "react";
import { takeArrival } from "./arrival";

/**
 * Focuses the main view's first heading when the payer got here from a form (arrival.ts); on a
 * page opened or reloaded, focus stays where the browser puts it. Rendered with a key of the view
 * so a refresh that changes the view (a link found paid) runs it again.
 */
export function ArrivalFocus() {
  useEffect(() => {
    if (!takeArrival()) return;
    // After the router's own scroll and focus handling of the new page.
    const id = window.setTimeout(() => {
      const h = document.querySelector<HTMLElement>("main h2");
      if (!h) return;
      if (!h.hasAttribute("tabindex")) h.setAttribute("tabindex", "-1");
      h.focus();
    }, 50);
    return () => window.clearTimeout(id);
  }, []);
  return null;
}
