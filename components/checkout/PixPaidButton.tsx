"use client";

import { useState } from "react";
import { buttonClass } from "../ui/Button";
import { dictionary, type Locale } from "./i18n";
import { useWatcher } from "./PaymentWatcher";
import s from "./checkout.module.css";

/**
 * "Já paguei": the payer says they paid in the bank app. The page asks at once and keeps asking
 * (PaymentWatcher polls on), and explains why the confirmation may take a moment.
 */
export function PixPaidButton({ locale }: { locale: Locale }) {
  const t = dictionary(locale);
  const { refresh } = useWatcher();
  const [waiting, setWaiting] = useState(false);
  if (waiting) {
    return (
      <div className={s.pixWait} role="status" data-testid="pix-waiting">
        <h3>{t.pixWait.title}</h3>
        <p>{t.pixWait.text}</p>
        <p>{t.pixWait.hint}</p>
      </div>
    );
  }
  return (
    <button
      type="button"
      className={buttonClass("secondary")}
      data-testid="pix-paid"
      onClick={() => {
        setWaiting(true);
        refresh();
      }}
    >
      {t.pixWait.button}
    </button>
  );
}
