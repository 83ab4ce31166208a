import { PIX_KEY_TYPES } from "@/lib/domain/pix/keys";
import { PIX_KEY_TYPE_LABEL } from "./format";
import ui from "./ui.module.css";

/** The PIX key type of a form (settings, cash-out): "detect" by default, else one of the DICT's types. */
export function PixKeyTypeSelect({ label, value, onChange, name }: { label: string; value: string; onChange: (type: string) => void; name?: string }) {
  return (
    <div className={ui.field}>
      <label htmlFor="pixKeyType">{label}</label>
      <select id="pixKeyType" name={name} className={ui.select} value={value} onChange={(e) => onChange(e.target.value)}>
        <option value="">Detectar automaticamente</option>
        {PIX_KEY_TYPES.map((t) => (
          <option key={t} value={t}>
            {PIX_KEY_TYPE_LABEL[t]}
          </option>
        ))}
      </select>
    </div>
  );
}
