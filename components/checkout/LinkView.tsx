import type { PayerLink, PayerMerchant, PayerOrder } from "@/lib/services/checkouts/checkout-page";
import { Alert } from "../ui/Alert";
import { dictionary, formatDateTime, type Locale } from "./i18n";
import { LinkPay } from "./LinkPay";
import { NoScriptNotice } from "./NoScriptNotice";
import { OrderSummary } from "./OrderSummary";
import { PendingCharge } from "./PendingCharge";
import { ExpiredResult, PaidResult } from "./Results";
import { ReturnToStore } from "./ReturnToStore";
import { SandboxControl } from "./SandboxControl";
import s from "./checkout.module.css";

/** A payment link's page: choose how to pay, or the link's outcome. */
export function LinkView({ link, order, merchant, locale }: { link: PayerLink; order: PayerOrder; merchant: PayerMerchant; locale: Locale }) {
  const t = dictionary(locale);
  if (link.status === "paid") {
    const paid = link.paid;
    const interest = paid && paid.paymentMethod === "credit_card" && paid.amount > order.amount ? { orderAmount: order.amount, count: paid.installments } : null;
    return (
      <>
        <PaidResult
          locale={locale}
          amount={link.paid?.amount ?? order.amount}
          interest={interest}
          merchant={merchant.name}
          method={link.paid?.paymentMethod ?? ""}
          paidAt={link.paid?.paidAt ?? null}
        >
          {link.returnUrl ? <ReturnToStore href={link.returnUrl} locale={locale} auto={false} /> : null}
        </PaidResult>
        {link.returned.map((r, i) => (
          <Alert tone="info" key={i}>
            <p data-testid="returned-payment">
              {(r.returned ? t.returned.onLink : t.returned.onLinkPending)(t.link.methods[r.paymentMethod].title, r.amount)}
            </p>
          </Alert>
        ))}
        {/* With interest the card's total is said above: the summary is the order's, as on the charge's page. */}
        <OrderSummary locale={locale} order={order} label={interest ? t.orderTotal : t.total} />
      </>
    );
  }
  if (link.status === "expired") {
    return (
      <>
        <ExpiredResult title={t.link.expiredTitle} text={t.link.expiredText}>
          {link.returnUrl ? <ReturnToStore href={link.returnUrl} locale={locale} auto={false} /> : null}
        </ExpiredResult>
        <OrderSummary locale={locale} order={order} label={t.total} />
      </>
    );
  }
  return (
    // Phones: one column. Computers: the summary beside the form, so the pay button stays in view.
    <div className={s.payLayout}>
      <div className={s.payAside}>
        <OrderSummary
          locale={locale}
          order={order}
          note={link.expiresAt ? t.link.validUntil(formatDateTime(link.expiresAt, locale)) : null}
        />
        <PendingCharge linkSecureId={link.secureId} locale={locale} />
      </div>
      <div className={s.payForm}>
        <NoScriptNotice locale={locale} />
        <LinkPay secureId={link.secureId} publicKey={merchant.publicKey} amount={order.amount} methods={link.methods} plan={order.installmentPlan} locale={locale} takes={link.takes} />
        {link.sandbox && link.methods.includes("credit_card") ? <SandboxControl secureId={link.secureId} locale={locale} showCards /> : null}
      </div>
    </div>
  );
}
