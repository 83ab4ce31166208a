"use client";

import { useSyncExternalStore } from "react";

const noop = () => () => {};

/**
 * False during server rendering and hydration, true after. Payment buttons stay disabled until
 * then: before hydration a tap would submit the form natively, and a card form must never do that.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    noop,
    () => true,
    () => false,
  );
}
