import { CopyButton } from "./CopyButton";
import d from "@/components/dashboard/ui.module.css";

/** A key or code in monospace with a copy button (dashboard). */
export function KeyBox({ value, label, testId }: { value: string; label: string; testId?: string }) {
  return (
    <div className={d.keyBox}>
      <code aria-label={label} data-testid={testId}>
        {value}
      </code>
      <CopyButton text={value} label="Copiar" copiedLabel="Copiado!" size="small" />
    </div>
  );
}
