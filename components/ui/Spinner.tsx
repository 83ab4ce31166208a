import s from "./ui.module.css";

export function Spinner() {
  return <span className={s.spinner} aria-hidden="true" />;
}
