import type { ReactNode } from "react";
import { dictionary, formatDateTime, type Locale } from "./i18n";
import { AlertIcon, CheckIcon, ClockIcon, UndoIcon, XIcon } from "./icons";
import s from "./checkout.module.css";

type Tone = "ok" | "warn" | "bad" | "neutral";
const TONE = { ok: s.resultOk, warn: s.resultWarn, bad: s.resultBad, neutral: s.resultNeutral };
const ICON = { ok: <CheckIcon />, warn: <ClockIcon size={36} />, bad: <XIcon />, neutral: <UndoIcon /> };

/**
 * A final screen: icon, title, text. The title takes focus when the screen replaces the payment
 * view in place (PaymentWatcher), so a screen reader reads it at once.
 */
export function Result({ tone, title, children, icon, testId }: { tone: Tone; title: string; children?: ReactNode; icon?: ReactNode; testId?: string }) {
  return (
    <section className={`${s.panel} ${s.result}`} aria-labelledby="result-heading" data-testid={testId}>
      <div className={`${s.resultIcon} ${TONE[tone]}`}>{icon ?? ICON[tone]}</div>
      <h2 className={s.resultTitle} id="result-heading" tabIndex={-1}>
        {title}
      </h2>
      {children}
    </section>
  );
}

export function PaidResult({
  locale,
  amount,
  merchant,
  method,
  paidAt,
  detail,
}: {
  locale: Locale;
  amount: number;
  merchant: string;
  method: string;
  paidAt: string | null;
  detail?: string | null;
}) {
  const t = dictionary(locale);
  return (
    <Result tone="ok" title={t.paid.title} testId="paid-screen">
      <p className={s.resultText}>{t.paid.text(amount, merchant)}</p>
      <p className={s.resultMeta}>
        {t.paid.via[method] ?? ""}
        {detail ? ` · ${detail}` : ""}
        {paidAt ? ` ${t.paid.at(formatDateTime(paidAt, locale))}` : ""}
      </p>
      <p className={s.resultMeta}>{t.paid.close}</p>
    </Result>
  );
}

export function ExpiredResult({ title, text }: { title: string; text: string }) {
  return (
    <Result tone="warn" title={title} icon={<AlertIcon />} testId="expired-screen">
      <p className={s.resultText}>{text}</p>
    </Result>
  );
}
