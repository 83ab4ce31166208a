import Link from "next/link";
import ui from "./ui.module.css";

// The pieces of the dashboard's filter forms (GET forms: the filters live in the URL).

/** A select of a filter form; with `anyLabel`, an empty first option that means "no filter". */
export function FilterSelect({
  id,
  label,
  value,
  options,
  anyLabel,
}: {
  id: string;
  label: string;
  value: string | undefined;
  options: readonly (readonly [value: string, label: string])[];
  anyLabel?: string;
}) {
  return (
    <div className={ui.field}>
      <label htmlFor={id}>{label}</label>
      <select id={id} name={id} defaultValue={value ?? ""} className={ui.select}>
        {anyLabel !== undefined && <option value="">{anyLabel}</option>}
        {options.map(([v, text]) => (
          <option key={v} value={v}>
            {text}
          </option>
        ))}
      </select>
    </div>
  );
}

/** The "De" and "Até" days of a filter form (Brasília days, YYYY-MM-DD). */
export function DateRangeFields({ from, to }: { from: string | undefined; to: string | undefined }) {
  return (
    <>
      <div className={ui.field}>
        <label htmlFor="from">De</label>
        <input id="from" name="from" type="date" defaultValue={from} className={ui.input} />
      </div>
      <div className={ui.field}>
        <label htmlFor="to">Até</label>
        <input id="to" name="to" type="date" defaultValue={to} className={ui.input} />
      </div>
    </>
  );
}

/** Submit, and a link back to the unfiltered list while a filter is on. */
export function FilterActions({ clearHref, filtered }: { clearHref: string; filtered: boolean }) {
  return (
    <div className={ui.filterActions}>
      <button type="submit" className={ui.button}>
        Filtrar
      </button>
      {filtered && (
        <Link href={clearHref} className={`${ui.button} ${ui.secondary}`}>
          Limpar
        </Link>
      )}
    </div>
  );
}

/** Said when a filter of the URL did not parse and the list ignores it; `names`: which ones, by their labels. */
export function InvalidFiltersAlert({ names = [] }: { names?: string[] }) {
  const quoted = names.map((n) => `“${n}”`);
  const list = quoted.length > 1 ? `${quoted.slice(0, -1).join(", ")} e ${quoted[quoted.length - 1]}` : quoted[0];
  return (
    <div className={`${ui.alert} ${ui.alertWarning}`} style={{ margin: 16 }} role="status" data-testid="invalid-filters">
      {quoted.length === 0
        ? "Algum filtro tem um valor inválido e foi ignorado."
        : quoted.length === 1
          ? `O filtro ${list} tem um valor inválido e foi ignorado.`
          : `Os filtros ${list} têm valores inválidos e foram ignorados.`}
    </div>
  );
}

/** "De" after "Até": said instead of an empty list, with a link that swaps them. */
export function ReversedRangeAlert({ from, to, swapHref }: { from: string; to: string; swapHref: string }) {
  const br = (ymd: string) => ymd.split("-").reverse().join("/");
  return (
    <div className={`${ui.alert} ${ui.alertWarning}`} style={{ margin: 16 }} role="status" data-testid="reversed-range">
      O período está invertido: “De” ({br(from)}) é depois de “Até” ({br(to)}), e nenhuma data cabe nele.{" "}
      <Link href={swapHref}>Trocar as datas</Link>
    </div>
  );
}
