"use client";

import { useRouter } from "next/navigation";
import { useEffect, useRef, useState } from "react";
import { detectDocumentType, isValidDocument, normalizeDocument } from "@/lib/domain/documents";
import { pricedInstallmentOptions, type InstallmentPlan } from "@/lib/domain/installments";
import type { PaymentMethod } from "@/lib/domain/status";
import { Alert } from "../ui/Alert";
import { Field } from "../ui/Field";
import { Spinner } from "../ui/Spinner";
import { buttonClass } from "../ui/Button";
import { useCardForm } from "./CardFields";
import { useHydrated } from "./hydrated";
import { dictionary, type Locale } from "./i18n";
import { maskDocument } from "./format";
import { BoletoIcon, CardIcon, PixIcon } from "./icons";
import { failure, postPay } from "./payer-api";
import { linkAttempt } from "./attempt";
import { markArrival } from "./arrival";
import { linkRefusal, useStaleFormCheck } from "./refusal";
import s from "./checkout.module.css";

type PayerKey = "name" | "email" | "document";
const ICONS: Record<PaymentMethod, React.ReactNode> = { pix: <PixIcon />, boleto: <BoletoIcon />, credit_card: <CardIcon /> };

function payerErrors(p: Record<PayerKey, string>, t: ReturnType<typeof dictionary>["link"]["errors"]) {
  const e: Partial<Record<PayerKey, string>> = {};
  if (!/\S+\s+\S+/.test(p.name.trim()) || p.name.trim().length > 120) e.name = t.name;
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/.test(p.email.trim())) e.email = t.email;
  const doc = normalizeDocument(p.document);
  const type = detectDocumentType(doc);
  if (!doc) e.document = t.documentEmpty;
  else if (!type || !isValidDocument(type, doc)) e.document = t.document;
  return e;
}

/**
 * A payment link's form: the payer picks PIX, boleto or card and gives name, e-mail and CPF/CNPJ
 * (what a boleto and the bank's records need). Choosing creates the charge on the server, and the
 * page moves to that charge's own view (QR code, boleto, or the card result).
 */
export function LinkPay({
  secureId,
  publicKey,
  amount,
  methods,
  plan,
  locale,
  takes = { cards: true, charges: true },
}: {
  secureId: string;
  publicKey: string;
  amount: number;
  methods: PaymentMethod[];
  /** The card installments offered (the link's plan, else the account's). */
  plan: InstallmentPlan;
  locale: Locale;
  /** What the link still takes (the server's caps, as the page was drawn). */
  takes?: { cards: boolean; charges: boolean };
}) {
  const t = dictionary(locale);
  const router = useRouter();
  const hydrated = useHydrated();
  const otherThanCard = methods.find((m) => m !== "credit_card");
  const [method, setMethodState] = useState<PaymentMethod>(!takes.cards && otherThanCard ? otherThanCard : methods[0]);
  const [payer, setPayer] = useState<Record<PayerKey, string>>({ name: "", email: "", document: "" });
  // The payer's details and chosen method survive going to a method and back, and switching the
  // page's language (a full page load); this tab only, cleared with it.
  const storeKey = `arara.payer.${secureId}`;
  const methodKey = `arara.method.${secureId}`;
  const setMethod = (m: PaymentMethod) => {
    setMethodState(m);
    try {
      window.sessionStorage.setItem(methodKey, m);
    } catch {
      // Storage off: the method is chosen again after a reload.
    }
  };
  useEffect(() => {
    try {
      const saved = JSON.parse(window.sessionStorage.getItem(storeKey) ?? "null") as Record<PayerKey, string> | null;
      // After hydration only (the server has no storage): a one-time restore, not derived state.
      // eslint-disable-next-line react-hooks/set-state-in-effect
      if (saved && typeof saved.name === "string") setPayer({ name: saved.name, email: saved.email ?? "", document: saved.document ?? "" });
      const m = window.sessionStorage.getItem(methodKey) as PaymentMethod | null;
      if (m && methods.includes(m) && (takes.cards || m !== "credit_card")) setMethodState(m);
    } catch {
      // Storage off or unreadable: the payer types again.
    }
    // The link's methods do not change while the page is open.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [storeKey, methodKey]);
  useEffect(() => {
    try {
      if (payer.name || payer.email || payer.document) window.sessionStorage.setItem(storeKey, JSON.stringify(payer));
    } catch {
      // Storage off: nothing to keep.
    }
  }, [storeKey, payer]);
  const [touched, setTouched] = useState<Partial<Record<PayerKey, boolean>>>({});
  const [submitted, setSubmitted] = useState(false);
  const [serverErrors, setServerErrors] = useState<Partial<Record<PayerKey, string>>>({});
  const [busy, setBusy] = useState(false);
  // A link already at a cap when the page was drawn says so from the start, as after a refused tap.
  const [error, setError] = useState<string | null>(
    !takes.charges ? t.outcome.atLoad.linkLimit : !takes.cards ? (otherThanCard ? t.outcome.atLoad.cardLimit : t.outcome.atLoad.cardLimitOnly) : null,
  );
  /** The answer was lost (offline): the payment may have been made; offer to look before paying again. */
  const [lost, setLost] = useState(false);
  /** The server found the order paid meanwhile: this tap charged nothing. */
  const [paidMeanwhile, setPaidMeanwhile] = useState(false);
  /** The link takes no more card attempts (too many refused), or no more charges at all. */
  const [noCard, setNoCard] = useState(!takes.cards);
  const [blocked, setBlocked] = useState(!takes.charges || (!takes.cards && !otherThanCard));
  // A page shown again from history (Back after paying) was rendered when the link was open: ask
  // the server, and show the link as it is now (paid, expired) instead of a form that cannot pay.
  useStaleFormCheck(secureId, (st) => Boolean(st.status && st.status !== "open"), () => router.refresh(), () => setBusy(false));
  const refs = useRef<Partial<Record<PayerKey, HTMLInputElement | null>>>({});
  const card = useCardForm(locale, amount, "link-card", plan);

  const errors = payerErrors(payer, t.link.errors);
  const shown = (k: PayerKey) => serverErrors[k] ?? ((touched[k] || submitted) && errors[k] ? errors[k] : undefined);
  const typed = useRef<Partial<Record<PayerKey, boolean>>>({});
  const set = (k: PayerKey) => (e: React.ChangeEvent<HTMLInputElement>) => {
    const v = k === "document" ? maskDocument(e.target.value) : e.target.value;
    if (v.trim()) typed.current[k] = true;
    setPayer((p) => ({ ...p, [k]: v }));
    if (serverErrors[k]) setServerErrors((x) => ({ ...x, [k]: undefined }));
  };
  // Leaving a field checks it only once something was typed in it: tabbing through an empty form
  // flags nothing (the pay button does: `submitted`).
  const touch = (k: PayerKey) => (e: React.FocusEvent<HTMLInputElement>) => {
    if (e.currentTarget.value.trim() || typed.current[k]) setTouched((x) => ({ ...x, [k]: true }));
  };

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    if (busy || blocked) return;
    setError(null);
    setLost(false);
    setSubmitted(true);
    const firstBad = (["name", "email", "document"] as const).find((k) => errors[k]);
    if (firstBad) refs.current[firstBad]?.focus();
    // Focus goes to the first invalid field in page order: the payer's fields come before the card's.
    const cardOk = method === "credit_card" ? card.validate(!firstBad) && !firstBad : true;
    if (firstBad || !cardOk) {
      setError(t.errors.fix);
      return;
    }
    setBusy(true);
    try {
      const body: Record<string, unknown> = {
        method,
        payer: { name: payer.name.trim(), email: payer.email.trim(), document: normalizeDocument(payer.document) },
        // A PIX or boleto asked again from this browser is the one already made (components/checkout/attempt.ts).
        attempt: linkAttempt(secureId),
      };
      if (method === "credit_card") {
        body.cardToken = await card.tokenize(publicKey);
        body.installments = card.installments;
      }
      const r = await postPay(secureId, body);
      if (r.ok) {
        markArrival();
        router.push(`/checkout/${r.data.secureId}`);
        return;
      }
      if (r.error.status === 409 || (r.error.status === 422 && !r.error.errors)) {
        // No charge was made for this tap: say why, and what the payer can still do.
        const why = await linkRefusal(secureId, r.error);
        if (why.kind === "paid") setPaidMeanwhile(true);
        else if (why.kind === "expired") {
          // The server renders the expired link.
          markArrival();
          router.refresh();
        } else if (why.kind === "cardLimit" && methods.some((m) => m !== "credit_card")) {
          setNoCard(true);
          setMethod(methods.find((m) => m !== "credit_card")!);
          setError(t.outcome.cardLimit);
        } else {
          setBlocked(true);
          setError(why.kind === "cardLimit" ? t.outcome.cardLimitOnly : t.outcome.linkLimit);
        }
        setBusy(false);
        return;
      }
      const fromServer: Partial<Record<PayerKey, string>> = {};
      for (const fe of r.error.errors ?? []) {
        const k = fe.field.replace(/^payer\./, "") as PayerKey;
        if (k in t.link.errors) fromServer[k] = t.link.errors[k];
      }
      setServerErrors(fromServer);
      if (Object.keys(fromServer).length) setError(t.errors.fix);
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

  const offered = pricedInstallmentOptions(amount, plan);
  const maxInstallments = offered.length;
  const interestFree = offered.filter((o) => !o.interest).length;
  const cta = method === "credit_card" ? t.link.cta.credit_card(card.total) : t.link.cta[method];

  return (
    <form className={`${s.panel} ${s.stack}`} onSubmit={submit} noValidate aria-label={methods.length > 1 ? t.link.chooseHeading : t.link.oneMethod}>
      <fieldset className={s.fieldset}>
        <legend className={s.legend}>{methods.length > 1 ? t.link.chooseHeading : t.link.oneMethod}</legend>
        <div className={s.methods}>
          {methods.map((m) => (
            <label className={s.method} key={m} data-testid={`method-${m}`}>
              <input type="radio" name="method" value={m} checked={method === m} onChange={() => setMethod(m)} disabled={noCard && m === "credit_card"} />
              <span className={s.methodIcon}>{ICONS[m]}</span>
              <span className={s.methodText}>
                <span className={s.methodTitle}>{t.link.methods[m].title}</span>
                <span className={s.methodNote}>{m === "credit_card" && maxInstallments > 1 ? t.link.upTo(maxInstallments, interestFree) : t.link.methods[m].note}</span>
              </span>
              <span className={s.radio} aria-hidden="true" />
            </label>
          ))}
        </div>
      </fieldset>

      <hr className={s.divider} />

      <fieldset className={`${s.fieldset} ${s.stack} ${s.payerFields}`}>
        <legend className={s.legend}>{t.link.payerHeading}</legend>
        <Field
          id="payer-name"
          label={t.link.name}
          autoComplete="name"
          value={payer.name}
          onChange={set("name")}
          onBlur={touch("name")}
          error={shown("name")}
          ref={(el) => void (refs.current.name = el)}
          data-testid="payer-name"
        />
        <Field
          id="payer-email"
          label={t.link.email}
          type="email"
          autoComplete="email"
          inputMode="email"
          value={payer.email}
          onChange={set("email")}
          onBlur={touch("email")}
          error={shown("email")}
          ref={(el) => void (refs.current.email = el)}
          data-testid="payer-email"
        />
        <Field
          id="payer-document"
          label={t.link.document}
          inputMode={/[A-Za-z]/.test(payer.document) ? "text" : "numeric"}
          autoComplete="off"
          placeholder="000.000.000-00"
          value={payer.document}
          onChange={set("document")}
          onBlur={touch("document")}
          error={shown("document")}
          hint={t.link.documentHint}
          ref={(el) => void (refs.current.document = el)}
          data-testid="payer-document"
        />
      </fieldset>

      {method === "credit_card" ? (
        <>
          <hr className={s.divider} />
          <fieldset className={s.fieldset}>
            <legend className={s.legend}>{t.card.heading}</legend>
            {card.fields}
          </fieldset>
        </>
      ) : null}

      <div role="alert" data-testid="link-message">
        {paidMeanwhile ? (
          <Alert tone="ok" title={t.outcome.paidTitle}>
            <p>{method === "credit_card" ? t.outcome.paidCard : t.outcome.paidOther}</p>
          </Alert>
        ) : error ? (
          <Alert tone="danger">{error}</Alert>
        ) : null}
      </div>
      {paidMeanwhile ? (
        <button
          type="button"
          className={buttonClass("primary", true)}
          data-testid="see-paid"
          onClick={() => {
            markArrival();
            router.refresh();
          }}
        >
          {t.outcome.seePaid}
        </button>
      ) : (
        <>
          {lost ? (
            <button type="button" className={buttonClass("secondary", true)} data-testid="check-status" onClick={() => window.location.reload()}>
              {t.outcome.check}
            </button>
          ) : null}
          <button type="submit" className={buttonClass("primary", true)} disabled={!hydrated || busy || blocked} data-testid="link-submit">
            {busy ? <Spinner /> : null}
            {busy ? (method === "credit_card" ? t.card.processing : t.link.creating) : hydrated ? cta : t.card.loading}
          </button>
        </>
      )}
    </form>
  );
}
