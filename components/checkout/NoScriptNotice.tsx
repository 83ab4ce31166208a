import { Alert } from "../ui/Alert";
import { dictionary, type Locale } from "./i18n";

/**
 * What a browser without JavaScript shows above a payment form that cannot work there (the card is
 * tokenized in the browser). A server component on purpose: React renders a <noscript> from a client
 * component as nothing, so the message must come from the server's HTML. PIX and boleto charge pages
 * need no JavaScript and do not use this.
 */
export function NoScriptNotice({ locale }: { locale: Locale }) {
  const t = dictionary(locale).card;
  return (
    <noscript>
      <Alert tone="warning" title={t.noScriptTitle}>
        <p data-testid="noscript-notice">{t.noScript}</p>
      </Alert>
    </noscript>
  );
}
