import type { InputHTMLAttributes, ReactNode, Ref } from "react";
import s from "./ui.module.css";

/**
 * A labelled input with its hint and error wired for screen readers (aria-describedby,
 * aria-invalid). The error text is announced when the field is focused; a form announces its own
 * summary in a live region.
 */
export function Field({
  id,
  label,
  hint,
  error,
  adornment,
  ref,
  ...input
}: {
  id: string;
  label: string;
  hint?: ReactNode;
  error?: string | null;
  /** Shown inside the input's right edge (a card brand) and read as part of its description. */
  adornment?: ReactNode;
  ref?: Ref<HTMLInputElement>;
} & Omit<InputHTMLAttributes<HTMLInputElement>, "id">) {
  const describedBy =
    [adornment ? `${id}-adornment` : null, hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(" ") || undefined;
  return (
    <div className={s.field}>
      <label className={s.label} htmlFor={id}>
        {label}
      </label>
      <div className={s.control}>
        <input
          ref={ref}
          id={id}
          className={`${s.input} ${adornment ? s.withAdornment : ""}`}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
          {...input}
        />
        {adornment ? (
          <span className={s.adornment} id={`${id}-adornment`}>
            {adornment}
          </span>
        ) : null}
      </div>
      {hint ? (
        <span className={s.hint} id={`${id}-hint`}>
          {hint}
        </span>
      ) : null}
      {error ? (
        <span className={s.error} id={`${id}-error`}>
          {error}
        </span>
      ) : null}
    </div>
  );
}

export function SelectField({
  id,
  label,
  hint,
  children,
  ...select
}: { id: string; label: string; hint?: ReactNode; children: ReactNode } & Omit<React.SelectHTMLAttributes<HTMLSelectElement>, "id">) {
  return (
    <div className={s.field}>
      <label className={s.label} htmlFor={id}>
        {label}
      </label>
      <select id={id} className={s.input} aria-describedby={hint ? `${id}-hint` : undefined} {...select}>
        {children}
      </select>
      {hint ? (
        <span className={s.hint} id={`${id}-hint`}>
          {hint}
        </span>
      ) : null}
    </div>
  );
}
