import type { Metadata } from "next";
import { cookies, headers } from "next/headers";
import { notFound, redirect } from "next/navigation";
import { cache } from "react";
import { ensureDatabase } from "@/lib/db/client";
import { getCheckoutPageData } from "@/lib/services/checkouts/checkout-page";
import { LinkView } from "@/components/checkout/LinkView";
import { ArrivalFocus } from "@/components/checkout/ArrivalFocus";
import { Shell } from "@/components/checkout/Shell";
import { TransactionView } from "@/components/checkout/TransactionView";
import { LANG_COOKIE, dictionary, parseLocale, type Locale } from "@/components/checkout/i18n";

type Props = {
  params: Promise<{ secureId: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

// One read per request, shared by the metadata and the page.
const pageData = cache(async (secureId: string) => {
  await ensureDatabase();
  const now = new Date();
  return { data: await getCheckoutPageData(secureId, now), now: now.getTime() };
});

async function localeOf(searchParams: Props["searchParams"]): Promise<Locale> {
  const lang = (await searchParams).lang;
  return parseLocale(typeof lang === "string" ? lang : null) ?? parseLocale((await cookies()).get(LANG_COOKIE)?.value) ?? "pt";
}

export async function generateMetadata({ params, searchParams }: Props): Promise<Metadata> {
  const t = dictionary(await localeOf(searchParams));
  const { data } = await pageData((await params).secureId);
  const merchant = data && data.kind !== "redirect" ? data.merchant.name : null;
  return {
    title: merchant ? `${t.title} · ${merchant}` : t.title,
    // A payment page is a capability URL: never indexed, never leaked as a referrer.
    robots: { index: false, follow: false },
    referrer: "no-referrer",
  };
}

export default async function CheckoutPage({ params, searchParams }: Props) {
  const { secureId } = await params;
  const locale = await localeOf(searchParams);
  const { data, now } = await pageData(secureId);
  if (!data) notFound();
  if (data.kind === "redirect") redirect(`/checkout/${data.secureId}`);
  const other = locale === "pt" ? "en" : "pt";
  const sandbox = data.kind === "transaction" ? data.transaction.sandbox : data.link.sandbox;
  // Changes when a refresh changes the view (a link found paid): ArrivalFocus runs again then.
  const view = data.kind === "transaction" ? `${data.transaction.secureId}:${data.transaction.status}` : `${data.link.secureId}:${data.link.status}`;
  return (
    <Shell
      locale={locale}
      merchant={data.merchant}
      sandbox={sandbox}
      switchHref={`/checkout/${secureId}?lang=${other}`}
      nonce={(await headers()).get("x-nonce") ?? undefined}
    >
      {data.kind === "transaction" ? (
        <TransactionView tx={data.transaction} order={data.order} merchant={data.merchant} locale={locale} serverNow={now} />
      ) : (
        <LinkView link={data.link} order={data.order} merchant={data.merchant} locale={locale} />
      )}
      <ArrivalFocus key={view} />
    </Shell>
  );
}
