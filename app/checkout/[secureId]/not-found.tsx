import { cookies } from "next/headers";
import { Shell } from "@/components/checkout/Shell";
import { Result } from "@/components/checkout/Results";
import { AlertIcon } from "@/components/checkout/icons";
import { LANG_COOKIE, dictionary, parseLocale } from "@/components/checkout/i18n";
import s from "@/components/checkout/checkout.module.css";

export const metadata = { title: "Pagamento não encontrado", robots: { index: false, follow: false } };

/** An unknown or mistyped payment URL: a 404 that says so in the payer's words. */
export default async function CheckoutNotFound() {
  const locale = parseLocale((await cookies()).get(LANG_COOKIE)?.value) ?? "pt";
  const t = dictionary(locale);
  return (
    <Shell locale={locale} merchant={null} sandbox={false} switchHref={`?lang=${locale === "pt" ? "en" : "pt"}`}>
      <Result tone="warn" title={t.notFound.title} icon={<AlertIcon />} testId="not-found">
        <p className={s.resultText}>{t.notFound.text}</p>
      </Result>
    </Shell>
  );
}
