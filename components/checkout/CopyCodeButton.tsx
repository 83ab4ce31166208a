"use client";

import { useEffect, useId, useLayoutEffect, useRef, useState } from "react";
import { COPIED_ICON_PATH, COPY_FEEDBACK_MS, COPY_ICON_PATH } from "./early-copy";
import s from "../ui/ui.module.css";

/**
 * Copies a payment code (PIX copy-and-paste, boleto line) and says so twice: on the button, for the
 * eye, and in a polite live region, for screen readers. When the Clipboard API is refused (an old
 * browser, an insecure origin) it selects the code's text so the payer can copy it by hand.
 *
 * It works before hydration too: its data-copy-* attributes drive the checkout's inline script
 * (early-copy.ts). On mounting it marks itself live (clicks are then React's alone) and carries on
 * from whatever that script showed; the texts the script may have changed sit in elements marked
 * suppressHydrationWarning. It imports only the shared UI styles, not the dashboard's: the
 * checkout's stylesheet is render-blocking on a slow phone.
 */
export type CopyCodeProps = {
  text: string;
  label: string;
  copiedLabel: string;
  failedLabel?: string;
  /** Element whose text is selected when copying fails. */
  selectId?: string;
  variant?: "primary" | "secondary";
};

export function CopyCodeButton({ text, label, copiedLabel, failedLabel, selectId, variant = "primary" }: CopyCodeProps) {
  const [state, setState] = useState<"idle" | "copied" | "failed">("idle");
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const button = useRef<HTMLButtonElement>(null);
  const statusId = useId();
  useEffect(() => () => void (timer.current && clearTimeout(timer.current)), []);
  // Hand-over from the early script: from now on clicks are React's; show what it was showing.
  useLayoutEffect(() => {
    const el = button.current;
    if (!el) return;
    el.setAttribute("data-copy-live", "");
    const early = el.dataset.copyState;
    const left = Number(el.dataset.copyUntil) - Date.now();
    if ((early === "copied" || early === "failed") && left > 0) {
      setState(early);
      timer.current = setTimeout(() => setState("idle"), left);
    }
  }, []);

  async function copy() {
    if (timer.current) clearTimeout(timer.current);
    try {
      await navigator.clipboard.writeText(text);
      setState("copied");
    } catch {
      setState("failed");
      const el = selectId ? document.getElementById(selectId) : null;
      if (el) {
        const range = document.createRange();
        range.selectNodeContents(el);
        const sel = window.getSelection();
        sel?.removeAllRanges();
        sel?.addRange(range);
      }
    }
    timer.current = setTimeout(() => setState("idle"), COPY_FEEDBACK_MS);
  }

  const copied = state === "copied";
  const idleClass = `${s.button} ${s.block} ${s[variant]}`;
  const copiedClass = `${s.button} ${s.block} ${s.success}`;
  return (
    <div>
      <button
        ref={button}
        type="button"
        className={copied ? copiedClass : idleClass}
        onClick={copy}
        data-copy={text}
        data-copy-labels={`${label}|${copiedLabel}|${failedLabel ?? ""}`}
        data-copy-classes={`${idleClass}|${copiedClass}`}
        data-copy-status={statusId}
        data-copy-status-classes={`${s.visuallyHidden}|${s.copyFeedback} ${s.copyFeedbackError}`}
        data-copy-select={selectId}
        suppressHydrationWarning
      >
        <svg width="20" height="20" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
          <path d={copied ? COPIED_ICON_PATH : COPY_ICON_PATH} />
        </svg>
        {copied ? copiedLabel : label}
      </button>
      {/* The button shows "copied" to the eye; this region says it to screen readers, and shows a failure. */}
      <p
        id={statusId}
        className={state === "failed" ? `${s.copyFeedback} ${s.copyFeedbackError}` : s.visuallyHidden}
        role="status"
        aria-live="polite"
        suppressHydrationWarning
      >
        {state === "copied" ? copiedLabel : state === "failed" ? failedLabel : ""}
      </p>
    </div>
  );
}
