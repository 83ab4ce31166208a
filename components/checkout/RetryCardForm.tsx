"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import type { InstallmentPlan } from "@/lib/domain/installments";
import { Alert } from "../ui/Alert";
import { Spinner } from "../ui/Spinner";
import { buttonClass } from "../ui/Button";
import { useCardForm } from "./CardFields";
import { useHydrated } from "./hydrated";
import { dictionary, type Locale } from "./i18n";
import { failure, postPay } from "./payer-api";
import { markArrival } from "./arrival";
import { retryRefusal, useStaleFormCheck, type Refusal } from "./refusal";
import s from "./checkout.module.css";

/**
 * Another card for a refused charge: tokenize in the browser, then post only the token to the
 * refused charge's pay route, which creates a new charge for the same order. The page then follows
 * the new charge (its own secureId page shows approved, or refused with the reason).
 */
export function RetryCardForm({
  secureId,
  publicKey,
  amount,
  plan,
  locale,
  viaLink = false,
}: {
  secureId: string;
  publicKey: string;
  amount: number;
  plan: InstallmentPlan;
  locale: Locale;
  /** The page offers the way back to the payment link's other methods, below this form. */
  viaLink?: boolean;
}) {
  const t = dictionary(locale);
  const router = useRouter();
  const card = useCardForm(locale, amount, "retry", plan);
  const hydrated = useHydrated();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  /** The answer was lost (offline): the card may have been charged; offer to look before paying again. */
  const [lost, setLost] = useState(false);
  /** The server made no charge: the order was paid meanwhile, or another card was tried elsewhere. */
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const [blocked, setBlocked] = useState(false);

  // A page shown again from history (Back after paying with another card) was rendered before that
  // attempt: ask the server, and follow the newest attempt instead of offering a form that cannot pay.
  useStaleFormCheck(secureId, (st) => Boolean(st.next), () => router.refresh(), () => setBusy(false));

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    if (busy || blocked) return;
    setError(null);
    setLost(false);
    if (!card.validate()) {
      setError(t.errors.fix);
      return;
    }
    setBusy(true);
    try {
      const token = await card.tokenize(publicKey);
      const r = await postPay(secureId, { cardToken: token, installments: card.installments });
      if (r.ok) {
        markArrival();
        router.push(`/checkout/${r.data.secureId}`);
        return;
      }
      if (r.error.status === 409) {
        // No charge was made for this card: say why (refusal.ts).
        setRefusal(await retryRefusal(secureId, r.error));
        setBusy(false);
        return;
      }
      const noMore = r.error.status === 422 && r.error.errors?.[0]?.field !== "cardToken";
      setBlocked(noMore);
      if (noMore) setError(viaLink ? t.card.noMoreAttemptsLink : t.card.noMoreAttempts);
      else {
        const f = failure(t, { status: r.error.status });
        setError(f.message);
        setLost(f.lost);
      }
    } catch (err) {
      const f = failure(t, { thrown: err });
      setError(f.message);
      setLost(f.lost);
    }
    setBusy(false);
  }

  return (
    <form className={s.stack} onSubmit={submit} noValidate aria-labelledby="retry-heading">
      <h2 className={s.sectionTitle} id="retry-heading">
        {t.card.tryAgainHeading}
      </h2>
      {card.fields}
      <div role="alert" data-testid="retry-message">
        {refusal?.kind === "paid" ? (
          <Alert tone="ok" title={t.outcome.paidTitle}>
            <p>{t.outcome.paidCard}</p>
          </Alert>
        ) : refusal ? (
          <Alert tone="info">{t.outcome.retried}</Alert>
        ) : error ? (
          <Alert tone="danger">{error}</Alert>
        ) : null}
      </div>
      {refusal ? (
        refusal.secureId ? (
          <button
            type="button"
            className={buttonClass("primary", true)}
            data-testid="see-paid"
            onClick={() => {
              markArrival();
              router.push(`/checkout/${refusal.secureId}`);
            }}
          >
            {refusal.kind === "paid" ? t.outcome.seePaid : t.outcome.seeLatest}
          </button>
        ) : null
      ) : (
        <>
          {lost ? (
            <button type="button" className={buttonClass("secondary", true)} data-testid="check-status" onClick={() => window.location.reload()}>
              {t.outcome.check}
            </button>
          ) : null}
          <button type="submit" className={buttonClass("primary", true)} disabled={!hydrated || busy || blocked} data-testid="card-submit">
            {busy ? <Spinner /> : null}
            {busy ? t.card.processing : hydrated ? t.card.pay(card.total) : t.card.loading}
          </button>
        </>
      )}
    </form>
  );
}
