import type { ReactNode } from "react";
import type { PayerMerchant } from "@/lib/services/checkouts/checkout-page";
import { dictionary, htmlLang, type Locale } from "./i18n";
import { formatCnpj, formatPhoneBR } from "./format";
import { EarlyCopyScript } from "./EarlyCopyScript";
import { GlobeIcon, LockIcon } from "./icons";
import s from "./checkout.module.css";

/** Header with the merchant (who is being paid), the page, and the footer with the language switch. */
export function Shell({
  locale,
  merchant,
  sandbox,
  switchHref,
  nonce,
  children,
}: {
  locale: Locale;
  merchant: PayerMerchant | null;
  sandbox: boolean;
  switchHref: string;
  /** The request's CSP nonce: the early copy script carries it (the brand colours come as a stylesheet). */
  nonce?: string;
  children: ReactNode;
}) {
  const t = dictionary(locale);
  const initial = merchant?.name.trim().charAt(0).toUpperCase() || "A";
  const brand = merchant?.brand;
  const support = brand?.support;
  return (
    <div className={s.page} lang={htmlLang(locale)}>
      {brand ? (
        // The colours as a stylesheet of the app's own origin (app/brand/colors.css): the CSP allows
        // it whatever render made it. Colours checked by checkBrandColor (#rrggbb only).
        <link rel="stylesheet" href={brandCssHref(brand.color, brand.colorHover)} />
      ) : null}
      {sandbox ? (
        // A landmark of its own: every piece of a page sits in one (axe "region").
        <aside className={s.testBanner} aria-label={t.sandboxBadge}>
          <strong>{t.sandboxBadge}</strong> · {t.sandboxBanner}
        </aside>
      ) : null}
      <header className={s.top}>
        <div className={s.topInner}>
          {brand?.logoUrl ? (
            // eslint-disable-next-line @next/next/no-img-element
            <img className={s.logo} src={brand.logoUrl} alt="" width={40} height={40} data-testid="merchant-logo" />
          ) : (
            <div className={s.avatar} aria-hidden="true">
              {initial}
            </div>
          )}
          <div className={s.merchant}>
            <h1 className={s.merchantName}>{merchant?.name ?? "Arara"}</h1>
            {merchant?.cnpj ? (
              <p className={s.merchantDoc}>
                {t.cnpj} {formatCnpj(merchant.cnpj)}
              </p>
            ) : (
              <p className={s.merchantDoc}>{t.secure}</p>
            )}
          </div>
        </div>
      </header>
      <main className={s.main} id="conteudo">
        {children}
      </main>
      <footer className={s.footer}>
        {support && (support.email || support.phone) ? (
          <div className={s.support} data-testid="merchant-support">
            <span>{t.support.label(merchant!.name)}</span>
            {support.email ? (
              <a href={`mailto:${support.email}`} data-testid="support-email">
                {support.email}
              </a>
            ) : null}
            {support.whatsapp ? (
              <a href={support.whatsapp} rel="noreferrer" target="_blank" data-testid="support-whatsapp">
                {t.support.whatsapp} {formatPhoneBR(support.phone!)}
              </a>
            ) : support.phone ? (
              <a href={`tel:+${support.phone}`} data-testid="support-phone">
                {formatPhoneBR(support.phone)}
              </a>
            ) : null}
          </div>
        ) : null}
        <div className={s.footerInner}>
          <span className={s.lock}>
            <LockIcon />
            {t.securedBy}
          </span>
          <a className={s.langLink} href={switchHref} hrefLang={locale === "pt" ? "en" : "pt-BR"} lang={locale === "pt" ? "en" : "pt-BR"} aria-label={t.switchLangLabel}>
            <GlobeIcon />
            {t.switchLang}
          </a>
        </div>
      </footer>
      {/* Copy buttons that work before hydration (early-copy.ts), in the server's HTML only
          (EarlyCopyScript). Last, so it does not hold the parser (an inline script waits for the
          stylesheets) before the page's content. Without a nonce it is left out. */}
      {nonce ? <EarlyCopyScript nonce={nonce} /> : null}
    </div>
  );
}

/** `/brand/colors.css?c=…&h=…` for two #rrggbb colours. */
function brandCssHref(color: string, hover: string): string {
  return `/brand/colors.css?c=${encodeURIComponent(color.replace(/^#/, ""))}&h=${encodeURIComponent(hover.replace(/^#/, ""))}`;
}
