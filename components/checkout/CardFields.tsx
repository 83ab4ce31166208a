"use client";

import { useRef, useState } from "react";
import { CARD_BRANDS, cvvLength, detectBrand, panLengthOk, type CardBrand } from "@/lib/domain/card/brand";

/** The brands the card form takes (every brand the gateway recognises), most common first. */
const FIRST: readonly CardBrand[] = ["visa", "mastercard", "elo", "amex", "hipercard"];
const ACCEPTED_BRANDS: readonly CardBrand[] = [...FIRST, ...CARD_BRANDS.filter((b) => !FIRST.includes(b))];
import { luhnValid } from "@/lib/domain/card/luhn";
import { pricedInstallmentOptions, type InstallmentPlan } from "@/lib/domain/installments";
import { Field, SelectField } from "../ui/Field";
import { BRAND_NAMES, dictionary, type Locale } from "./i18n";
import { formatCardNumber } from "./format";
import { LockIcon } from "./icons";
import s from "./checkout.module.css";

type Key = "number" | "holder" | "expiry" | "cvv";
type Errors = Partial<Record<Key, string>>;

export type CardState = ReturnType<typeof useCardForm>;

const FIELD_ORDER: Key[] = ["number", "holder", "expiry", "cvv"];
// The tokenization endpoint's field names -> ours.
const SERVER_FIELD: Record<string, Key> = {
  number: "number",
  holderName: "holder",
  expirationMonth: "expiry",
  expirationYear: "expiry",
  cvv: "cvv",
};

export class CardError extends Error {}

/**
 * The card's state and checks, in the payer's browser (lib/domain's Luhn and brand tables, the
 * same ones tokenization applies). `tokenize` sends the card to /api/v1/card-token with the
 * account's public key only, and returns the token: the only thing the page then posts anywhere.
 */
export function useCardForm(locale: Locale, amount: number, idPrefix: string, plan: InstallmentPlan) {
  const t = dictionary(locale).card;
  const [number, setNumber] = useState("");
  const [holder, setHolder] = useState("");
  const [expiry, setExpiry] = useState("");
  const [cvv, setCvv] = useState("");
  const [installments, setInstallments] = useState(1);
  const [touched, setTouched] = useState<Partial<Record<Key, boolean>>>({});
  const [serverErrors, setServerErrors] = useState<Errors>({});
  const [submitted, setSubmitted] = useState(false);
  const refs = useRef<Partial<Record<Key, HTMLInputElement | null>>>({});

  const digits = number.replace(/\D/g, "");
  const brand: CardBrand | null = digits.length >= 6 ? detectBrand(digits) : null;

  function check(): Errors {
    const e: Errors = {};
    if (!digits) e.number = t.errors.numberEmpty;
    else if (!/^\d{12,19}$/.test(digits) || !luhnValid(digits)) e.number = t.errors.number;
    else if (!brand) e.number = t.errors.brand;
    else if (!panLengthOk(brand, digits)) e.number = t.errors.number;
    if (holder.trim().length < 2) e.holder = t.errors.holder;
    const m = /^(\d{2})\/(\d{2})$/.exec(expiry);
    if (!expiry) e.expiry = t.errors.expiryEmpty;
    else if (!m || Number(m[1]) < 1 || Number(m[1]) > 12) e.expiry = t.errors.expiry;
    else {
      const now = new Date();
      const year = 2000 + Number(m[2]);
      const month = Number(m[1]);
      if (year < now.getFullYear() || (year === now.getFullYear() && month < now.getMonth() + 1)) e.expiry = t.errors.expired;
      else if (year > now.getFullYear() + 20) e.expiry = t.errors.expiry;
    }
    const need = brand ? cvvLength(brand) : null;
    if (!cvv) e.cvv = t.errors.cvvEmpty;
    else if (need ? cvv.length !== need : !/^\d{3,4}$/.test(cvv)) e.cvv = t.errors.cvv(need ?? 3);
    return e;
  }

  const errors = check();
  const shown = (k: Key) => serverErrors[k] ?? ((touched[k] || submitted) && errors[k] ? errors[k] : undefined);

  /**
   * Marks every field as checked; focuses the first bad one unless `focus` is false (a field above
   * the card, the payer's, is already the first invalid one in page order). True when the card looks valid.
   */
  function validate(focus = true): boolean {
    setSubmitted(true);
    setServerErrors({});
    const bad = FIELD_ORDER.find((k) => errors[k]);
    if (bad && focus) refs.current[bad]?.focus();
    return !bad;
  }

  async function tokenize(publicKey: string): Promise<string> {
    const [mm, yy] = expiry.split("/");
    const res = await fetch(`/api/v1/card-token?publicKey=${encodeURIComponent(publicKey)}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ number: digits, holderName: holder.trim(), expirationMonth: mm, expirationYear: `20${yy}`, cvv }),
    });
    if (res.ok) return (await res.text()).trim();
    const body = (await res.json().catch(() => null)) as { errors?: { field: string }[] } | null;
    const fromServer: Errors = {};
    for (const e of body?.errors ?? []) {
      const k = SERVER_FIELD[e.field.replace(/^card\./, "")];
      if (k) fromServer[k] = k === "cvv" ? t.errors.cvv(brand ? cvvLength(brand) : 3) : k === "holder" ? t.errors.holder : t.errors[k === "expiry" ? "expiry" : "number"];
    }
    setServerErrors(fromServer);
    const first = FIELD_ORDER.find((k) => fromServer[k]);
    if (first) refs.current[first]?.focus();
    throw new CardError(res.status === 400 ? "invalid" : res.status === 429 ? "busy" : "failed");
  }

  // The merchant's plan, priced here exactly as the server prices it (the server re-computes the choice).
  const options = pricedInstallmentOptions(amount, plan);
  const chosen = options.find((o) => o.count === installments) ?? options[0];
  // Leaving a field checks it only once something was typed in it: tabbing through an empty form
  // flags nothing (paying does: `submitted`). A field typed in and emptied again is checked.
  const typed = useRef<Partial<Record<Key, boolean>>>({});
  const touch = (k: Key) => (e: React.FocusEvent<HTMLInputElement>) => {
    if (e.currentTarget.value.trim() || typed.current[k]) setTouched((x) => ({ ...x, [k]: true }));
  };
  const onInput = (k: Key) => (e: React.FormEvent<HTMLInputElement>) => {
    if (e.currentTarget.value.trim()) typed.current[k] = true;
  };
  const clearServer = (k: Key) => serverErrors[k] && setServerErrors((x) => ({ ...x, [k]: undefined }));

  const fields = (
    <div className={`${s.stack} ${s.cardFields}`}>
      {/* No name attributes: if this form were ever submitted natively, no card field would be sent. */}
      <Field
        id={`${idPrefix}-number`}
        label={t.number}
        inputMode="numeric"
        autoComplete="cc-number"
        placeholder="0000 0000 0000 0000"
        value={formatCardNumber(number, brand)}
        ref={(el) => void (refs.current.number = el)}
        onChange={(e) => {
          setNumber(e.target.value.replace(/\D/g, "").slice(0, 19));
          clearServer("number");
        }}
        onBlur={touch("number")}
        onInput={onInput("number")}
        error={shown("number")}
        adornment={brand ? <span className={s.brandBadge}>{BRAND_NAMES[brand]}</span> : null}
        data-testid="card-number"
      />
      <p className={s.acceptedBrands} data-testid="accepted-brands">
        <span>{dictionary(locale).acceptedBrands}:</span>{" "}
        {ACCEPTED_BRANDS.map((b) => (
          <span className={s.brandChip} key={b}>
            {BRAND_NAMES[b]}
          </span>
        ))}
      </p>
      <Field
        id={`${idPrefix}-holder`}
        label={t.holder}
        autoComplete="cc-name"
        autoCapitalize="characters"
        spellCheck={false}
        value={holder}
        ref={(el) => void (refs.current.holder = el)}
        onChange={(e) => {
          setHolder(e.target.value.toUpperCase().slice(0, 100));
          clearServer("holder");
        }}
        onBlur={touch("holder")}
        onInput={onInput("holder")}
        error={shown("holder")}
        data-testid="card-holder"
      />
      <div className={s.grid2}>
        <Field
          id={`${idPrefix}-expiry`}
          label={t.expiry}
          inputMode="numeric"
          autoComplete="cc-exp"
          placeholder="MM/AA"
          value={expiry}
          ref={(el) => void (refs.current.expiry = el)}
          onChange={(e) => {
            const d = e.target.value.replace(/\D/g, "").slice(0, 4);
            setExpiry(d.length > 2 ? `${d.slice(0, 2)}/${d.slice(2)}` : d);
            clearServer("expiry");
          }}
          onBlur={touch("expiry")}
          onInput={onInput("expiry")}
          error={shown("expiry")}
          data-testid="card-expiry"
        />
        <Field
          id={`${idPrefix}-cvv`}
          label="CVV"
          inputMode="numeric"
          autoComplete="cc-csc"
          placeholder={brand === "amex" ? "0000" : "000"}
          value={cvv}
          ref={(el) => void (refs.current.cvv = el)}
          onChange={(e) => {
            setCvv(e.target.value.replace(/\D/g, "").slice(0, 4));
            clearServer("cvv");
          }}
          onBlur={touch("cvv")}
          onInput={onInput("cvv")}
          error={shown("cvv")}
          // Once the brand is known (the number comes first): Amex has 4 digits on the front.
          hint={brand ? t.cvvHint(cvvLength(brand)) : undefined}
          data-testid="card-cvv"
        />
      </div>
      {options.length > 1 ? (
        <SelectField
          id={`${idPrefix}-installments`}
          label={t.installments}
          value={installments}
          onChange={(e) => setInstallments(Number(e.target.value))}
          data-testid="card-installments"
        >
          {options.map((o) => (
            <option key={o.count} value={o.count}>
              {t.installment(o)}
            </option>
          ))}
        </SelectField>
      ) : null}
      {chosen.interest ? (
        // The order's total above is without interest: say what the card is charged in all.
        <p className={s.subtle} data-testid="installment-interest">
          {t.interestNote(chosen, chosen.total - amount)}
        </p>
      ) : chosen.count > 1 ? (
        // The installments may differ by centavos (the first carries them): say what they add up to.
        <p className={s.subtle} data-testid="installment-total">
          {t.installmentTotal(chosen)}
        </p>
      ) : null}
      <p className={s.secureNote}>
        <LockIcon />
        {t.secureNote}
      </p>
    </div>
  );

  /** `total`: what the card is charged in the chosen option (the amount, or with interest the Price total). */
  return { fields, validate, tokenize, installments: chosen.count, total: chosen.total };
}
