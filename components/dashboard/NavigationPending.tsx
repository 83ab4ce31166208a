"use client";

import { createContext, useCallback, useContext, useEffect, useState } from "react";
import { useLinkStatus } from "next/link";
import s from "./shell.module.css";

/**
 * The dashboard's loading state while a page it links to is read on the server (a slow navigation
 * left the old page with no sign for seconds). Said at once, in Portuguese, in a status region
 * (aria-busy while loading), drawn over the page (fixed: nothing moves). Not a loading.tsx on
 * purpose: a Suspense boundary above the pages would stream them, and a page that is not found
 * (another account's transaction, a mistyped path) would answer 200 instead of 404.
 */
const Report = createContext<(delta: number) => void>(() => {});

export function NavigationPendingProvider({ children }: { children: React.ReactNode }) {
  const [pending, setPending] = useState(0);
  const report = useCallback((delta: number) => setPending((n) => Math.max(0, n + delta)), []);
  const busy = pending > 0;
  return (
    <Report.Provider value={report}>
      {children}
      {busy && <span className={s.pendingBar} aria-hidden="true" />}
      {/*
        The live region is always there (its text changing is what is announced), empty and sizeless when
        idle; the status inside it only while loading, so a page's own status messages stay the only ones.
      */}
      <div aria-live="polite" data-testid="dashboard-loading">
        {busy && (
          <span role="status" aria-busy="true" className={s.pendingText}>
            Carregando…
          </span>
        )}
      </div>
    </Report.Provider>
  );
}

/** Inside a <Link>: reports its navigation while it is pending. */
export function LinkPending() {
  const { pending } = useLinkStatus();
  const report = useContext(Report);
  useEffect(() => {
    if (!pending) return;
    report(1);
    return () => report(-1);
  }, [pending, report]);
  return null;
}
