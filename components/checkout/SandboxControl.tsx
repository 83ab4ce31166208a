"use client";

import { useState } from "react";
import { Spinner } from "../ui/Spinner";
import { buttonClass } from "../ui/Button";
import { dictionary, type Locale } from "./i18n";
import { FlaskIcon } from "./icons";
import { useWatcher } from "./PaymentWatcher";
import s from "./checkout.module.css";
import ui from "../ui/ui.module.css";

/**
 * Sandbox charges only: pays the test PIX or clears the test boleto through the page's simulate
 * route (server-side sandboxMove in the merchant's account; no key reaches the browser). The
 * watcher then shows the success screen as it would for a real payment.
 */
export function SandboxControl({ secureId, locale, showCards = false }: { secureId: string; locale: Locale; showCards?: boolean }) {
  const t = dictionary(locale);
  const { refresh } = useWatcher();
  const [state, setState] = useState<"idle" | "working" | "failed">("idle");

  async function simulate() {
    setState("working");
    try {
      const res = await fetch(`/checkout/${secureId}/simulate`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
      if (!res.ok) throw new Error(String(res.status));
      refresh();
      setState("idle");
    } catch {
      setState("failed");
    }
  }

  return (
    <aside className={s.sandbox} aria-labelledby={`sandbox-${secureId}`}>
      <p className={s.sandboxTitle} id={`sandbox-${secureId}`}>
        <FlaskIcon />
        {t.sandbox.title}
      </p>
      <p className={s.sandboxText}>{showCards ? t.sandbox.cards : t.sandbox.text}</p>
      {showCards ? null : (
        <button type="button" className={`${buttonClass("secondary", true)} ${s.sandboxButton}`} onClick={simulate} disabled={state === "working"}>
          {state === "working" ? <Spinner /> : null}
          {state === "working" ? t.sandbox.working : t.sandbox.button}
        </button>
      )}
      <p className={state === "failed" ? s.sandboxText : ui.visuallyHidden} role="status" aria-live="polite">
        {state === "failed" ? t.sandbox.failed : ""}
      </p>
    </aside>
  );
}
