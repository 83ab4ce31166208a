"use client";

import { useEffect, useState } from "react";
import { buttonClass } from "../ui/Button";
import { dictionary, type Locale } from "./i18n";
import s from "./checkout.module.css";

const AUTO_RETURN_S = 8;

/**
 * "Voltar para a loja": a plain link (works before hydration and without JavaScript) to the
 * merchant's returnUrl; after a success it also returns by itself after a few seconds, which the
 * payer can stop.
 */
export function ReturnToStore({ href, locale, auto }: { href: string; locale: Locale; auto: boolean }) {
  const t = dictionary(locale);
  const [left, setLeft] = useState<number | null>(auto ? AUTO_RETURN_S : null);

  useEffect(() => {
    if (left === null) return;
    if (left <= 0) {
      window.location.assign(href);
      return;
    }
    const id = window.setTimeout(() => setLeft((n) => (n === null ? null : n - 1)), 1000);
    return () => window.clearTimeout(id);
  }, [left, href]);

  return (
    <div className={s.returnBlock}>
      <a className={buttonClass("primary", true)} href={href} data-testid="return-to-store">
        {t.last.backToStore}
      </a>
      {left !== null ? (
        <p className={s.subtle} data-testid="auto-return">
          <span aria-live="off">{t.last.autoReturn(Math.max(0, left))}</span>{" "}
          <button type="button" className={s.inlineButton} onClick={() => setLeft(null)}>
            {t.last.stay}
          </button>
        </p>
      ) : null}
    </div>
  );
}
