import QRCode from "qrcode";
import type { PayerTransaction } from "@/lib/services/checkouts/checkout-page";
import { CopyCodeButton } from "./CopyCodeButton";
import { Countdown } from "./Countdown";
import { dictionary, type Locale } from "./i18n";
import { PixIcon } from "./icons";
import { PixPaidButton } from "./PixPaidButton";
import { buttonClass } from "../ui/Button";
import s from "./checkout.module.css";

/**
 * A pending PIX. On a phone the payer is usually on the same device as their bank app, so the
 * copy-and-paste code comes first and the QR code (for paying from another device) second; on a
 * wider screen they sit side by side.
 */
export async function PixView({ tx, locale, serverNow }: { tx: PayerTransaction; locale: Locale; serverNow: number }) {
  const t = dictionary(locale);
  const code = tx.pix?.qrcode ?? "";
  // Server-side SVG: no image request, no QR library in the page's JavaScript. Margin 0: the
  // white frame around it is the quiet zone.
  const svg = await QRCode.toString(code, { type: "svg", margin: 0, errorCorrectionLevel: "M", color: { dark: "#111827", light: "#ffffff" } });
  return (
    <section className={`${s.panel} ${s.stack}`} aria-labelledby="pix-heading">
      <h2 className={s.heading} id="pix-heading">
        <PixIcon className={s.headingIcon} />
        {t.pix.heading}
      </h2>
      {tx.pix?.expiresAt ? <Countdown expiresAt={tx.pix.expiresAt} locale={locale} serverNow={serverNow} /> : null}
      <div className={s.pixGrid}>
        <div className={s.stack}>
          <ol className={s.steps}>
            {t.pix.steps.map((step) => (
              <li key={step}>{step}</li>
            ))}
          </ol>
          <div>
            <p className={s.codeLabel} id="pix-code-label">
              {t.pix.codeLabel}
            </p>
            <p className={s.code} id="pix-code" aria-labelledby="pix-code-label" data-testid="pix-code">
              {code}
            </p>
          </div>
          <CopyCodeButton text={code} label={t.pix.copy} copiedLabel={t.pix.copied} failedLabel={t.pix.copyFailed} selectId="pix-code" />
        </div>
        <div className={s.qrBlock}>
          <h3 className={s.qrTitle}>{t.pix.qrHeading}</h3>
          <div className={s.qr} role="img" aria-label={t.pix.qrAlt(tx.amount)} data-testid="pix-qr" dangerouslySetInnerHTML={{ __html: svg }} />
          <p className={s.subtle}>{t.pix.qrHint}</p>
          <a className={buttonClass("secondary")} href={`/checkout/${tx.secureId}/qr.png`} download={`pix-${tx.id}.png`} data-testid="pix-save-qr">
            {t.pixWait.save}
          </a>
        </div>
      </div>
      <p className={s.subtle} role="note">
        {t.pix.waiting}
      </p>
      <PixPaidButton locale={locale} />
    </section>
  );
}
