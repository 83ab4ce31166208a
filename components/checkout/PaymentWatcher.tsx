"use client";

import { useRouter } from "next/navigation";
import { createContext, useCallback, useContext, useEffect, useRef, useState, type ReactNode } from "react";
import { dictionary, formatDateTime, type Locale } from "./i18n";
import { noteServerDate, serverNow } from "./server-clock";
import { Alert } from "../ui/Alert";
import ui from "../ui/ui.module.css";

const POLL_MS = 2500;

type Watch = { refresh: () => void; paidAt: string | null };
const WatcherContext = createContext<Watch>({ refresh: () => {}, paidAt: null });
export const useWatcher = () => useContext(WatcherContext);

/**
 * "Pagamento em 29/11/2026 às 04:38 (horário de Brasília)". The paid screen a watcher swaps in was
 * drawn by the server while the charge was pending, without the time: the time then comes from the
 * status route's answer (paidAt), kept by the watcher.
 */
export function PaidAtLine({ paidAt, locale, className }: { paidAt: string | null; locale: Locale; className?: string }) {
  const watched = useWatcher().paidAt;
  const at = paidAt ?? watched;
  if (!at) return null;
  return (
    <p className={className} data-testid="paid-at">
      {dictionary(locale).paid.at(formatDateTime(at, locale))}
    </p>
  );
}

type Phase = "waiting" | "paid" | "expired";

/**
 * Watches a pending charge while the payer pays in their bank app: polls the page's status route
 * every few seconds (at once when the payer comes back to the tab) and swaps the payment view for
 * the success screen without a reload, or for the expired screen when the time runs out. Both
 * screens are rendered on the server and handed in, so the swap needs no extra code here.
 */
export function PaymentWatcher({
  secureId,
  locale,
  expiresAt,
  paidView,
  expiredView,
  children,
}: {
  secureId: string;
  locale: Locale;
  expiresAt: string | null;
  paidView: ReactNode;
  expiredView: ReactNode;
  children: ReactNode;
}) {
  const t = dictionary(locale);
  const router = useRouter();
  const [phase, setPhase] = useState<Phase>("waiting");
  const [paidAt, setPaidAt] = useState<string | null>(null);
  const [announce, setAnnounce] = useState("");
  /** The last look at the server failed for want of a connection (or the browser says it is offline). */
  const [offline, setOffline] = useState(false);
  const busy = useRef(false);
  const done = phase !== "waiting";

  const check = useCallback(async () => {
    if (busy.current) return;
    busy.current = true;
    try {
      const res = await fetch(`/checkout/${secureId}/status`, { cache: "no-store", headers: { accept: "application/json" } });
      setOffline(false);
      noteServerDate(res.headers.get("date"));
      if (!res.ok) return;
      const { data } = (await res.json()) as { data: { status: string; expired?: boolean; paidAt?: string | null; next?: string | null } };
      if (data.next) {
        router.push(`/checkout/${data.next}`);
      } else if (data.status === "paid") {
        setPaidAt(data.paidAt ?? null);
        setPhase("paid");
        setAnnounce(t.paid.title);
      } else if (data.expired) {
        setPhase("expired");
      } else if (data.status !== "pending" && data.status !== "processing") {
        // Refunded, refused, disputed: the server renders the right screen.
        router.refresh();
      }
    } catch {
      // No connection: said on the page; the next tick (or the connection's return) tries again.
      setOffline(true);
    } finally {
      busy.current = false;
    }
  }, [secureId, t.paid.title, router]);

  useEffect(() => {
    if (done) return;
    const tick = () => {
      if (document.visibilityState === "visible") void check();
    };
    const id = window.setInterval(tick, POLL_MS);
    document.addEventListener("visibilitychange", tick);
    // The connection back: look at once. Lost: say so before the next tick fails.
    const online = () => void check();
    const lost = () => setOffline(true);
    window.addEventListener("online", online);
    window.addEventListener("offline", lost);
    return () => {
      window.clearInterval(id);
      document.removeEventListener("visibilitychange", tick);
      window.removeEventListener("online", online);
      window.removeEventListener("offline", lost);
    };
  }, [check, done]);

  useEffect(() => {
    if (done || !expiresAt) return;
    const ms = Date.parse(expiresAt) - serverNow();
    // setTimeout holds at most ~24.8 days; a later expiry is simply not scheduled.
    if (ms > 2 ** 31 - 1) return;
    // At the deadline ask the server at once; the server's clock decides (a phone's may be wrong).
    const id = window.setTimeout(() => void check(), Math.max(0, ms) + 500);
    return () => window.clearTimeout(id);
  }, [expiresAt, check, done]);

  useEffect(() => {
    if (done) document.getElementById("result-heading")?.focus();
  }, [done]);

  return (
    <WatcherContext.Provider value={{ refresh: () => void check(), paidAt }}>
      {!done && offline ? (
        <div data-testid="offline-notice">
          <Alert tone="warning" role="status">
            {t.offline}
          </Alert>
        </div>
      ) : null}
      {phase === "paid" ? paidView : phase === "expired" ? expiredView : children}
      <p className={ui.visuallyHidden} role="status" aria-live="polite">
        {announce}
      </p>
    </WatcherContext.Provider>
  );
}
