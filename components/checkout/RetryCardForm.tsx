"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import type { InstallmentPlan } from "@/lib/domain/installments";
import { Alert } from "../ui/Alert";
import { Spinner } from "../ui/Spinner";
import { buttonClass } from "../ui/Button";
import { CardError, useCardForm } from "./CardFields";
import { useHydrated } from "./hydrated";
import { dictionary, type Locale } from "./i18n";
import { postPay } from "./payer-api";
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
}: {
  secureId: string;
  publicKey: string;
  amount: number;
  plan: InstallmentPlan;
  locale: Locale;
}) {
  const t = dictionary(locale);
  const router = useRouter();
  const card = useCardForm(locale, amount, "retry", plan);
  const hydrated = useHydrated();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    if (busy) return;
    setError(null);
    if (!card.validate()) {
      setError(t.errors.fix);
      return;
    }
    setBusy(true);
    try {
      const token = await card.tokenize(publicKey);
      const r = await postPay(secureId, { cardToken: token, installments: card.installments });
      if (r.ok) {
        router.push(`/checkout/${r.data.secureId}`);
        return;
      }
      if (r.error.status === 409) {
        router.refresh();
        return;
      }
      setError(r.error.status === 422 && r.error.errors?.[0]?.field !== "cardToken" ? t.card.noMoreAttempts : t.errors.generic);
    } catch (err) {
      setError(err instanceof CardError ? (err.message === "invalid" ? t.errors.fix : t.errors.generic) : t.errors.network);
    }
    setBusy(false);
  }

  return (
    <form className={s.stack} onSubmit={submit} noValidate aria-labelledby="retry-heading">
      <h2 className={s.sectionTitle} id="retry-heading">
        {t.card.tryAgainHeading}
      </h2>
      {card.fields}
      <div role="alert">{error ? <Alert tone="danger">{error}</Alert> : null}</div>
      <button type="submit" className={buttonClass("primary", true)} disabled={!hydrated || busy} data-testid="card-submit">
        {busy ? <Spinner /> : null}
        {busy ? t.card.processing : hydrated ? t.card.pay(card.total) : t.card.loading}
      </button>
    </form>
  );
}
