"use client";

import { useEffect, useRef, useState } from "react";
import { CopyCodeButton, type CopyCodeProps } from "@/components/checkout/CopyCodeButton";
import d from "@/components/dashboard/ui.module.css";

/**
 * Copies a text and says so.
 *
 * `size="block"` (default): a payment code's full-width button with its live region and the
 * select-by-hand fallback; that is the checkout's CopyCodeButton (the checkout imports it directly,
 * so the dashboard's styles stay out of its stylesheet).
 *
 * `size="small"`: the dashboard's compact secondary button beside a key or a link; it says
 * "copied" on itself (a live region) for two seconds and nothing when copying fails.
 */
export function CopyButton({
  size = "block",
  ...props
}: CopyCodeProps & { size?: "block" | "small" }) {
  return size === "small" ? <SmallCopyButton text={props.text} label={props.label} copiedLabel={props.copiedLabel} /> : <CopyCodeButton {...props} />;
}

function SmallCopyButton({ text, label, copiedLabel }: { text: string; label: string; copiedLabel: string }) {
  const [copied, setCopied] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(() => () => void (timer.current && clearTimeout(timer.current)), []);

  async function copy() {
    if (timer.current) clearTimeout(timer.current);
    try {
      await navigator.clipboard.writeText(text);
      setCopied(true);
    } catch {
      return setCopied(false);
    }
    timer.current = setTimeout(() => setCopied(false), 2000);
  }

  return (
    <button type="button" className={`${d.button} ${d.secondary} ${d.buttonSmall}`} onClick={copy} aria-live="polite">
      {copied ? copiedLabel : label}
    </button>
  );
}
