import type { ReactNode } from "react";
import type { Guide } from "@/lib/openapi/guides";
import { codeSpans, typeLabel, type FieldRow } from "@/lib/openapi/render";
import s from "./docs.module.css";

// The pieces of the /docs page (app/docs/page.tsx): server components, no client script.

type Json = Record<string, any>;

export function Text({ children }: { children: string | undefined }) {
  if (!children) return null;
  return (
    <>
      {codeSpans(children).map((p, i) => (p.code ? <code key={i}>{p.text}</code> : <span key={i}>{p.text}</span>))}
    </>
  );
}

/** A paragraph of the reference's prose, or nothing when there is none. */
export function Prose({ text, className }: { text: string | undefined; className?: string }) {
  if (!text) return null;
  return (
    <p className={className}>
      <Text>{text}</Text>
    </p>
  );
}

/** A scrollable table of the reference, its body given as rows. */
function RefTable({ title, columns, children }: { title?: string; columns: string[]; children: ReactNode }) {
  return (
    <div className={s.tableWrap} tabIndex={0}>
      {title ? <h5>{title}</h5> : null}
      <table className={s.table}>
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c}>{c}</th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}

export function Fields({ rows, title }: { rows: FieldRow[]; title?: string }) {
  if (!rows.length) return null;
  return (
    <RefTable title={title} columns={["Field", "Type", "Description"]}>
      {rows.map((r) => (
        <tr key={r.name}>
          <td>
            <code>{r.name}</code>
            {r.required ? <span className={s.required}> required</span> : null}
          </td>
          <td className={s.type}>{r.ref ? <a href={`#schema-${r.ref}`}>{r.type}</a> : r.type}</td>
          <td>
            <Text>{r.description}</Text>
            {r.constraints.length ? <div className={s.constraints}>{r.constraints.join(" · ")}</div> : null}
          </td>
        </tr>
      ))}
    </RefTable>
  );
}

export function Example({ value, label = "Example" }: { value: unknown; label?: string }) {
  if (value === undefined) return null;
  return (
    <details className={s.example} open={label === "Example"}>
      <summary>{label}</summary>
      <pre tabIndex={0}>{typeof value === "string" ? value : JSON.stringify(value, null, 2)}</pre>
    </details>
  );
}

export function Parameters({ params }: { params: Json[] | undefined }) {
  if (!params?.length) return null;
  return (
    <RefTable title="Parameters" columns={["Name", "In", "Type", "Description"]}>
      {params.map((p) => (
        <tr key={`${p.in}:${p.name}`}>
          <td>
            <code>{p.name}</code>
            {p.required ? <span className={s.required}> required</span> : null}
          </td>
          <td>{p.in}</td>
          <td className={s.type}>{typeLabel({}, p.schema)}</td>
          <td>
            <Text>{p.description ?? p.schema?.description}</Text>
            {p.schema?.default !== undefined ? <div className={s.constraints}>default {JSON.stringify(p.schema.default)}</div> : null}
          </td>
        </tr>
      ))}
    </RefTable>
  );
}

export function GuideSection({ g }: { g: Guide }) {
  return (
    <section className={s.guide} id={g.id}>
      <h3>{g.title}</h3>
      {g.paragraphs.map((p, i) => (
        <Prose key={i} text={p} />
      ))}
      {g.table ? (
        <RefTable columns={g.table.columns}>
          {g.table.rows.map((r, i) => (
            <tr key={i}>
              {r.map((c, j) => (
                <td key={j}>{j === 0 ? <code>{c}</code> : <Text>{c}</Text>}</td>
              ))}
            </tr>
          ))}
        </RefTable>
      ) : null}
      {g.code ? <pre className={s.code} tabIndex={0}>{g.code}</pre> : null}
    </section>
  );
}
