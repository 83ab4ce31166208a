import type { ReactNode } from "react";
import type { PayerMerchant } from "@/lib/services/checkouts/checkout-page";
import { dictionary, htmlLang, type Locale } from "./i18n";
import { formatCnpj } from "./format";
import { GlobeIcon, LockIcon } from "./icons";
import s from "./checkout.module.css";

/** Header with the merchant (who is being paid), the page, and the footer with the language switch. */
export function Shell({
  locale,
  merchant,
  sandbox,
  switchHref,
  children,
}: {
  locale: Locale;
  merchant: PayerMerchant | null;
  sandbox: boolean;
  switchHref: string;
  children: ReactNode;
}) {
  const t = dictionary(locale);
  const initial = merchant?.name.trim().charAt(0).toUpperCase() || "A";
  return (
    <div className={s.page} lang={htmlLang(locale)}>
      {sandbox ? (
        <p className={s.testBanner}>
          <strong>{t.sandboxBadge}</strong> · {t.sandboxBanner}
        </p>
      ) : null}
      <header className={s.top}>
        <div className={s.topInner}>
          <div className={s.avatar} aria-hidden="true">
            {initial}
          </div>
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
    </div>
  );
}
