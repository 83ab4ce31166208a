import { encodeInterleaved2of5, itfPath } from "@/lib/domain/boleto/interleaved-2of5";
import { formatBRL } from "@/lib/domain/money";
import type { PayerTransaction } from "@/lib/services/checkouts/checkout-page";
import { CopyCodeButton } from "./CopyCodeButton";
import { buttonClass } from "../ui/Button";
import { dictionary, formatDay, type Locale } from "./i18n";
import { BoletoIcon, DownloadIcon } from "./icons";
import s from "./checkout.module.css";

const BAR_HEIGHT = 50;

/** A pending boleto: due date, the digitable line to paste in a bank app, the barcode and the PDF. */
export function BoletoView({ tx, locale }: { tx: PayerTransaction; locale: Locale }) {
  const t = dictionary(locale);
  const b = tx.boleto!;
  const itf = /^\d{44}$/.test(b.barcode) ? encodeInterleaved2of5(b.barcode) : null;
  return (
    <section className={`${s.panel} ${s.stack}`} aria-labelledby="boleto-heading">
      <h2 className={s.heading} id="boleto-heading">
        <BoletoIcon className={s.headingIcon} />
        {t.boleto.heading}
      </h2>
      <dl className={s.facts}>
        <div>
          <dt>{t.boleto.due}</dt>
          <dd data-testid="boleto-due">{b.dueDate ? formatDay(b.dueDate, locale) : "—"}</dd>
        </div>
        <div>
          <dt>{t.amount}</dt>
          <dd>{formatBRL(tx.amount)}</dd>
        </div>
      </dl>
      <div>
        <p className={s.codeLabel} id="boleto-line-label">
          {t.boleto.lineLabel}
        </p>
        <p className={`${s.code} ${s.lineCode}`} id="boleto-line" aria-labelledby="boleto-line-label" data-testid="boleto-line">
          {b.digitableLine}
        </p>
      </div>
      <CopyCodeButton text={b.digitableLine.replace(/\D/g, "")} label={t.boleto.copy} copiedLabel={t.boleto.copied} failedLabel={t.boleto.copyFailed} selectId="boleto-line" />
      {itf ? (
        <div className={s.barcodeWrap}>
          <svg
            className={s.barcode}
            viewBox={`0 0 ${itf.width} ${BAR_HEIGHT}`}
            preserveAspectRatio="none"
            role="img"
            aria-label={t.boleto.barcodeAlt}
            data-testid="boleto-barcode"
          >
            <path d={itfPath(itf, BAR_HEIGHT)} fill="#000" shapeRendering="crispEdges" />
          </svg>
        </div>
      ) : null}
      <a className={buttonClass("secondary", true)} href={b.pdfUrl} download data-testid="boleto-pdf">
        <DownloadIcon />
        {t.boleto.pdf}
      </a>
      <p className={s.subtle}>
        {t.boleto.howTo} {t.boleto.clearing}
      </p>
    </section>
  );
}
