"use client";

import { useEffect, useState } from "react";
import { dictionary, formatDateTime, type Locale } from "./i18n";
import { ClockIcon } from "./icons";
import { noteRenderTime, serverNow as serverClock } from "./server-clock";
import s from "./checkout.module.css";

const DAY_MS = 86_400_000;

function hms(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const sec = total % 60;
  const mmss = `${String(m).padStart(2, "0")}:${String(sec).padStart(2, "0")}`;
  return h > 0 ? `${h}:${mmss}` : mmss;
}

/**
 * Time left to pay. Beyond a day it shows the deadline (a ticking 47:59:59 reads as noise); within
 * a day a countdown, highlighted in the last 10 minutes. role="timer" is not announced on every
 * tick; the deadline is in the text for screen readers.
 */
export function Countdown({ expiresAt, locale, serverNow }: { expiresAt: string; locale: Locale; serverNow: number }) {
  const t = dictionary(locale);
  const end = Date.parse(expiresAt);
  // First render uses the server's clock so the HTML and the hydrated text agree. Then the time
  // left is counted on the server's clock (server-clock.ts), never on the phone's: a phone set a
  // day ahead would show a payable PIX as expired.
  const [now, setNow] = useState(serverNow);
  useEffect(() => {
    noteRenderTime(serverNow);
    const tick = () => setNow(serverClock());
    const id = window.setInterval(tick, 1000);
    return () => window.clearInterval(id);
  }, [serverNow]);
  const left = end - now;
  if (left > DAY_MS) {
    return (
      <p className={s.timer}>
        <ClockIcon />
        <span>{t.pix.validUntil(formatDateTime(expiresAt, locale))}</span>
      </p>
    );
  }
  return (
    <p className={`${s.timer} ${left < 10 * 60_000 ? s.timerUrgent : ""}`} role="timer" aria-label={`${t.pix.validUntil(formatDateTime(expiresAt, locale))}`}>
      <ClockIcon />
      <span aria-hidden="true">
        {t.pix.expiresIn} <span className={s.timerValue}>{hms(left)}</span>
      </span>
    </p>
  );
}
