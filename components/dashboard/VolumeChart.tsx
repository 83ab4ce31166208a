import type { DayVolume } from "@/lib/services/dashboard/dashboard-overview";
import { PAYMENT_METHODS, type PaymentMethod } from "@/lib/domain/status";
import { formatBRL, formatBRLCompact, formatDayMonth, METHOD_SHORT } from "./format";
import s from "./ui.module.css";

export const METHOD_COLOR: Record<PaymentMethod, string> = {
  pix: "#0f766e",
  credit_card: "#6366f1",
  boleto: "#f59e0b",
};

type Geometry = { w: number; h: number; left: number; font: number; maxBar: number };
// The same 30 days drawn for a desktop card and for a phone: a narrower canvas keeps the labels
// readable when the SVG is scaled down to a phone's width.
const WIDE: Geometry = { w: 720, h: 250, left: 68, font: 11, maxBar: 18 };
const COMPACT: Geometry = { w: 360, h: 220, left: 56, font: 11, maxBar: 8 };

/** A round axis maximum (4 steps of 1, 2, 2.5 or 5 x 10^n centavos, at least R$ 1,00 a step). */
function niceMax(v: number): number {
  const raw = Math.max(v, 400) / 4;
  const pow = 10 ** Math.floor(Math.log10(raw));
  const n = raw / pow;
  const m = n <= 1 ? 1 : n <= 2 ? 2 : n <= 2.5 ? 2.5 : n <= 5 ? 5 : 10;
  return m * pow * 4;
}

function Bars({ days, g, id, testId }: { days: DayVolume[]; g: Geometry; id: string; testId: string }) {
  const M = { top: 12, right: 8, bottom: 28, left: g.left };
  const W = g.w;
  const H = g.h;
  const max = niceMax(Math.max(0, ...days.map((d) => d.total)));
  const plotW = W - M.left - M.right;
  const plotH = H - M.top - M.bottom;
  const slot = plotW / days.length;
  const barW = Math.max(3, Math.min(g.maxBar, slot * 0.64));
  const y = (v: number) => M.top + plotH - (v / max) * plotH;
  const ticks = [0, 1, 2, 3, 4].map((i) => (max / 4) * i);
  const empty = days.every((d) => d.total === 0);
  const every = Math.ceil(days.length / (W >= 600 ? 6 : 4));

  return (
    <svg viewBox={`0 0 ${W} ${H}`} width="100%" role="img" aria-labelledby={id} style={{ display: "block" }} data-testid={testId}>
      <title id={id}>
        {`Volume pago por dia nos últimos ${days.length} dias: ${formatBRL(days.reduce((a, d) => a + d.total, 0))} no total`}
      </title>
      {ticks.map((t) => (
        <g key={t}>
          <line x1={M.left} x2={W - M.right} y1={y(t)} y2={y(t)} stroke={t === 0 ? "#cbd5e1" : "#eef2f6"} />
          <text x={M.left - 8} y={y(t) + 4} textAnchor="end" fontSize={g.font} fill="#4b5563">
            {formatBRLCompact(t)}
          </text>
        </g>
      ))}
      {days.map((d, i) => {
        const x = M.left + i * slot + (slot - barW) / 2;
        let base = 0;
        return (
          <g key={d.date} data-date={d.date} data-total={d.total}>
            <title>
              {`${formatDayMonth(d.date)}: ${formatBRL(d.total)} (PIX ${formatBRL(d.pix)}, cartão ${formatBRL(d.credit_card)}, boleto ${formatBRL(d.boleto)})`}
            </title>
            {/* A transparent full-height target so the tooltip works on empty days too. */}
            <rect x={M.left + i * slot} y={M.top} width={slot} height={plotH} fill="transparent" />
            {PAYMENT_METHODS.map((m) => {
              const v = d[m];
              if (v <= 0) return null;
              const top = y(base + v);
              const h = Math.max(1.5, y(base) - top);
              base += v;
              return <rect key={m} x={x} y={top} width={barW} height={h} rx={Math.min(2, barW / 3)} fill={METHOD_COLOR[m]} />;
            })}
            {(days.length - 1 - i) % every === 0 && (
              <text x={i === days.length - 1 ? W - M.right : x + barW / 2} y={H - 8} textAnchor={i === days.length - 1 ? "end" : "middle"} fontSize={g.font} fill="#4b5563">
                {formatDayMonth(d.date)}
              </text>
            )}
          </g>
        );
      })}
      {empty && (
        <text x={M.left + plotW / 2} y={M.top + plotH / 2} textAnchor="middle" fontSize={g.font + 3} fill="#4b5563">
          Nenhuma venda paga neste período
        </text>
      )}
    </svg>
  );
}

/** Paid volume per day, stacked by method: plain server-rendered SVG, no chart library. */
export function VolumeChart({ days }: { days: DayVolume[] }) {
  return (
    <figure style={{ margin: 0 }}>
      <div className={s.wideOnly}>
        <Bars days={days} g={WIDE} id="volume-chart-title" testId="volume-chart" />
      </div>
      <div className={s.narrowOnly}>
        <Bars days={days} g={COMPACT} id="volume-chart-compact-title" testId="volume-chart-compact" />
      </div>
      <figcaption className={s.buttonRow} style={{ gap: 16, marginTop: 10, fontSize: "0.85rem", color: "#475569" }}>
        {PAYMENT_METHODS.map((m) => (
          <span key={m} style={{ display: "inline-flex", alignItems: "center", gap: 6 }}>
            <span className={s.dot} style={{ background: METHOD_COLOR[m] }} />
            {METHOD_SHORT[m]}
          </span>
        ))}
      </figcaption>
      <details className={s.details} style={{ marginTop: 10 }}>
        <summary>Ver dados em tabela</summary>
        <div className={s.tableWrap}>
          <table className={s.table}>
            <caption className={s.srOnly}>Volume pago por dia e meio de pagamento</caption>
            <thead>
              <tr>
                <th scope="col">Dia</th>
                {PAYMENT_METHODS.map((m) => (
                  <th key={m} scope="col" className={s.num}>
                    {METHOD_SHORT[m]}
                  </th>
                ))}
                <th scope="col" className={s.num}>
                  Total
                </th>
              </tr>
            </thead>
            <tbody>
              {days
                .filter((d) => d.total > 0)
                .map((d) => (
                  <tr key={d.date}>
                    <th scope="row" style={{ background: "transparent", textTransform: "none", fontSize: "0.9rem" }}>
                      {formatDayMonth(d.date)}
                    </th>
                    {PAYMENT_METHODS.map((m) => (
                      <td key={m} className={s.num}>
                        {formatBRL(d[m])}
                      </td>
                    ))}
                    <td className={s.num}>{formatBRL(d.total)}</td>
                  </tr>
                ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}
