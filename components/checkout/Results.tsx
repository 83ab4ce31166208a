import type { ReactNode } from "react";
import { dictionary, type Locale } from "./i18n";
import { PaidAtLine } from "./PaymentWatcher";
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
  interest,
  children,
}: {
  locale: Locale;
  amount: number;
  /** A card in installments with interest: `amount` is what the card was charged; the order's own total and the count. */
  interest?: { orderAmount: number; count: number } | null;
  merchant: string;
  method: string;
  paidAt: string | null;
  detail?: string | null;
  /** The order's references and the way back to the shop. */
  children?: ReactNode;
}) {
  const t = dictionary(locale);
  return (
    <Result tone="ok" title={t.paid.title} testId="paid-screen">
      <p className={s.resultText} data-testid="paid-text">
        {interest ? t.paid.textInterest(amount, interest.orderAmount, interest.count, merchant) : t.paid.text(amount, merchant)}
      </p>
      <p className={s.resultMeta} data-testid="paid-via">
        {t.paid.via[method] ?? ""}
        {detail ? ` · ${detail}` : ""}
      </p>
      {/* On a line of its own: after "2x de R$ 99,66 sem juros" a date read as part of the plan. */}
      <PaidAtLine paidAt={paidAt} locale={locale} className={s.resultMetaTight} />
      {children}
      <p className={s.resultMeta}>{t.paid.close}</p>
    </Result>
  );
}

export function ExpiredResult({ title, text, children }: { title: string; text: string; children?: ReactNode }) {
  return (
    <Result tone="warn" title={title} icon={<AlertIcon />} testId="expired-screen">
      <p className={s.resultText}>{text}</p>
      {children}
    </Result>
  );
}

/** The references a payer quotes to the shop: its order number and our transaction number. */
export function OrderRefs({ locale, orderRef, txNumber }: { locale: Locale; orderRef: string | null; txNumber: number }) {
  const t = dictionary(locale);
  return (
    <dl className={s.receiptRefs} data-testid="order-refs">
      {orderRef ? (
        <>
          <dt>{t.last.orderRef}</dt>
          <dd data-testid="order-ref">{orderRef}</dd>
        </>
      ) : null}
      <dt>{t.last.txNumber}</dt>
      <dd data-testid="tx-number">#{txNumber}</dd>
    </dl>
  );
}
