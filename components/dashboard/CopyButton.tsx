"use client";

import { useState } from "react";
import s from "./ui.module.css";

export function CopyButton({ value, label = "Copiar" }: { value: string; label?: string }) {
  const [copied, setCopied] = useState(false);
  async function copy() {
    try {
      await navigator.clipboard.writeText(value);
      setCopied(true);
      setTimeout(() => setCopied(false), 2000);
    } catch {
      setCopied(false);
    }
  }
  return (
    <button type="button" className={`${s.button} ${s.secondary} ${s.buttonSmall}`} onClick={copy} aria-live="polite">
      {copied ? "Copiado!" : label}
    </button>
  );
}

/** A key or code in monospace with a copy button. */
export function KeyBox({ value, label, testId }: { value: string; label: string; testId?: string }) {
  return (
    <div className={s.keyBox}>
      <code aria-label={label} data-testid={testId}>
        {value}
      </code>
      <CopyButton value={value} />
    </div>
  );
}
