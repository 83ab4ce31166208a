import { splitInstallments } from "@/lib/domain/installments";
import type { PayerMerchant, PayerOrder, PayerTransaction } from "@/lib/services/checkouts/checkout-page";
import { Alert } from "../ui/Alert";
import { BoletoView } from "./BoletoView";
import { dictionary, BRAND_NAMES, type Locale } from "./i18n";
import { ArrowLeftIcon } from "./icons";
import { NoScriptNotice } from "./NoScriptNotice";
import { OrderSummary } from "./OrderSummary";
import { PaymentWatcher } from "./PaymentWatcher";
import { PixView } from "./PixView";
import { ExpiredResult, OrderRefs, PaidResult, Result } from "./Results";
import { ReturnToStore } from "./ReturnToStore";
import { RetryCardForm } from "./RetryCardForm";
import { SandboxControl } from "./SandboxControl";
import { StatusPill } from "./StatusPill";
import s from "./checkout.module.css";

/** A transaction's page: one screen per state the payer can find it in. */
export async function TransactionView({
  tx,
  order,
  merchant,
  locale,
  serverNow,
}: {
  tx: PayerTransaction;
  order: PayerOrder;
  merchant: PayerMerchant;
  locale: Locale;
  serverNow: number;
}) {
  const t = dictionary(locale);
  const cardLabel = tx.card?.lastDigits ? t.card.paidWith(BRAND_NAMES[tx.card.brand ?? ""] ?? "", tx.card.lastDigits).trim() : null;
  // The card was charged `cardTotal`, split by the one rule (with interest, installments × the
  // Price-table installment, all equal; without, the first carries the centavos left).
  const installments =
    tx.installments > 1
      ? t.card.installment({ count: tx.installments, ...splitInstallments(tx.cardTotal, tx.installments), total: tx.cardTotal, interest: tx.cardTotal > tx.amount })
      : null;
  const withInterest = tx.paymentMethod === "credit_card" && tx.cardTotal > tx.amount;
  // With interest the card's total is said first ("Recebemos R$ 317,10 … pedido de R$ 299,00 em 6x
  // com juros"), and the summary below is the order's: "Total do pedido", not a second "Total".
  const totalLabel = withInterest ? t.orderTotal : t.total;
  const paid = (
    <PaidResult
      locale={locale}
      amount={tx.paymentMethod === "credit_card" ? tx.cardTotal : tx.amount}
      interest={withInterest ? { orderAmount: tx.amount, count: tx.installments } : null}
      merchant={merchant.name}
      method={tx.paymentMethod}
      paidAt={tx.paidAt}
      detail={[cardLabel, installments].filter(Boolean).join(" · ") || null}
    >
      {tx.status === "paid" && tx.refundedAmount > 0 ? (
        <p className={s.resultText} data-testid="paid-partly-refunded">
          {t.paid.partlyRefunded(tx.refundedAmount)}
        </p>
      ) : null}
      <OrderRefs locale={locale} orderRef={tx.orderRef} txNumber={tx.id} />
      {tx.returnUrl ? <ReturnToStore href={tx.returnUrl} locale={locale} auto /> : null}
    </PaidResult>
  );
  const backToStore = tx.returnUrl ? <ReturnToStore href={tx.returnUrl} locale={locale} auto={false} /> : null;
  const back = tx.linkSecureId ? (
    <p className={s.linkRow}>
      <a className={s.textLink} href={`/checkout/${tx.linkSecureId}`}>
        <ArrowLeftIcon />
        {t.link.other}
      </a>
    </p>
  ) : null;

  switch (tx.status) {
    case "paid":
      return (
        <>
          {paid}
          <OrderSummary locale={locale} order={order} label={totalLabel} />
        </>
      );
    case "refunded":
      return (
        <>
          <Result tone="neutral" title={tx.returnedAsDuplicate ? t.returned.title : t.refunded.title} testId="refunded-screen">
            <p className={s.resultText}>{tx.returnedAsDuplicate ? t.returned.text : t.refunded.text}</p>
            {backToStore}
          </Result>
          <OrderSummary locale={locale} order={order} label={t.total} />
        </>
      );
    case "chargedback":
    case "in_protest":
      return (
        <>
          <Result tone="warn" title={t.disputed.title}>
            <p className={s.resultText}>{t.disputed.text}</p>
            {backToStore}
          </Result>
          <OrderSummary locale={locale} order={order} label={t.total} />
        </>
      );
    case "refused":
      return (
        <div className={s.payLayout}>
          <div className={s.payAside}>
            <OrderSummary locale={locale} order={order} status={<StatusPill label={t.status.refused} tone="bad" />} />
          </div>
          <div className={s.payForm}>
          <section className={`${s.panel} ${s.stack}`} aria-labelledby="refused-heading">
            <h2 className={s.heading} id="refused-heading">
              {t.card.refusedTitle}
            </h2>
            <Alert tone="danger" title={cardLabel ?? undefined}>
              <p data-testid="refused-reason">{t.card.refused[tx.card?.refusedReason ?? "other"] ?? t.card.refused.other}</p>
            </Alert>
            {tx.canRetry ? (
              <>
                <NoScriptNotice locale={locale} />
                <RetryCardForm secureId={tx.secureId} publicKey={merchant.publicKey} amount={tx.amount} plan={order.installmentPlan} locale={locale} viaLink={Boolean(back)} />
              </>
            ) : (
              // With the link back to the payment link below, say that way is open: not "contact the shop" only.
              <p className={s.subtle} data-testid="no-more-attempts">
                {back ? t.card.noMoreAttemptsLink : t.card.noMoreAttempts}
              </p>
            )}
          </section>
          {tx.sandbox && tx.canRetry ? <SandboxControl secureId={tx.secureId} locale={locale} showCards /> : null}
          {back}
          </div>
        </div>
      );
    case "processing":
      // What is being paid stays in view while it is confirmed, and after (the paid screen's summary).
      return (
        <PaymentWatcher
          secureId={tx.secureId}
          locale={locale}
          expiresAt={null}
          paidView={
            <>
              {paid}
              <OrderSummary locale={locale} order={order} label={totalLabel} />
            </>
          }
          expiredView={null}
        >
          <Result tone="warn" title={t.processing.title} testId="processing-screen">
            <p className={s.resultText}>{t.processing.text}</p>
          </Result>
          <OrderSummary locale={locale} order={order} label={t.total} />
        </PaymentWatcher>
      );
    case "pending":
    case "approved": {
      const pix = tx.paymentMethod === "pix";
      // A charge made through the API has no link to ask again: the shop makes a new charge.
      const words = pix ? t.pix : t.boleto;
      const expired = (
        <ExpiredResult title={words.expiredTitle} text={tx.linkSecureId ? words.expiredText : words.expiredTextCharge}>
          {backToStore}
        </ExpiredResult>
      );
      if (tx.expired) {
        return (
          <>
            {expired}
            <OrderSummary locale={locale} order={order} label={t.total} />
            {back}
          </>
        );
      }
      // The watcher swaps everything below the header, the summary included ("Total a pagar" and the
      // pending pill must not stay above a success screen).
      const done = <OrderSummary locale={locale} order={order} label={t.total} />;
      return (
        <PaymentWatcher
          secureId={tx.secureId}
          locale={locale}
          expiresAt={pix ? (tx.pix?.expiresAt ?? null) : null}
          paidView={
            <>
              {paid}
              <OrderSummary locale={locale} order={order} label={totalLabel} />
            </>
          }
          expiredView={
            <>
              {expired}
              {done}
            </>
          }
        >
          <OrderSummary locale={locale} order={order} status={<StatusPill label={t.status.pending} pending />} />
          {pix ? <PixView tx={tx} locale={locale} serverNow={serverNow} /> : <BoletoView tx={tx} locale={locale} />}
          {tx.sandbox ? <SandboxControl secureId={tx.secureId} locale={locale} /> : null}
          {back}
        </PaymentWatcher>
      );
    }
  }
}
