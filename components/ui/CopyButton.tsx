"use client";

import { useEffect, useRef, useState } from "react";
import s from "./ui.module.css";
import d from "@/components/dashboard/ui.module.css";

/**
 * Copies a code (PIX copy-and-paste, boleto line) and says so twice: on the button, for the eye,
 * and in a polite live region, for screen readers. When the Clipboard API is refused (an old
 * browser, an insecure origin) it selects the code's text so the payer can copy it by hand.
 *
 * `size="small"`: the dashboard's compact secondary button beside a key or a link; it says
 * "copied" on itself (a live region) for two seconds and nothing when copying fails.
 */
export function CopyButton({
  text,
  label,
  copiedLabel,
  failedLabel,
  selectId,
  variant = "primary",
  size = "block",
}: {
  text: string;
  label: string;
  copiedLabel: string;
  failedLabel?: string;
  /** Element whose text is selected when copying fails. */
  selectId?: string;
  variant?: "primary" | "secondary";
  size?: "block" | "small";
}) {
  const [state, setState] = useState<"idle" | "copied" | "failed">("idle");
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(() => () => void (timer.current && clearTimeout(timer.current)), []);

  async function copy() {
    if (timer.current) clearTimeout(timer.current);
    try {
      await navigator.clipboard.writeText(text);
      setState("copied");
    } catch {
      if (size === "small") return setState("idle");
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
    timer.current = setTimeout(() => setState("idle"), size === "small" ? 2000 : 4000);
  }

  const copied = state === "copied";
  if (size === "small") {
    return (
      <button type="button" className={`${d.button} ${d.secondary} ${d.buttonSmall}`} onClick={copy} aria-live="polite">
        {copied ? copiedLabel : label}
      </button>
    );
  }
  return (
    <div>
      <button type="button" className={`${s.button} ${s.block} ${copied ? s.success : s[variant]}`} onClick={copy}>
        <svg width="20" height="20" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
          {copied ? <path d="m5 12.5 4.5 4.5L19 7.5" /> : <path d="M8 8V5.5A1.5 1.5 0 0 1 9.5 4h9A1.5 1.5 0 0 1 20 5.5v9a1.5 1.5 0 0 1-1.5 1.5H16M5.5 8h9A1.5 1.5 0 0 1 16 9.5v9a1.5 1.5 0 0 1-1.5 1.5h-9A1.5 1.5 0 0 1 4 18.5v-9A1.5 1.5 0 0 1 5.5 8Z" />}
        </svg>
        {copied ? copiedLabel : label}
      </button>
      {/* The button shows "copied" to the eye; this region says it to screen readers, and shows a failure. */}
      <p className={state === "failed" ? `${s.copyFeedback} ${s.copyFeedbackError}` : s.visuallyHidden} role="status" aria-live="polite">
        {state === "copied" ? copiedLabel : state === "failed" ? failedLabel : ""}
      </p>
    </div>
  );
}
