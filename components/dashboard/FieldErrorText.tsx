import ui from "./ui.module.css";

/** A settings form's error under field `name` (id `<name>-error`, for the input's aria-describedby), if any. */
export function FieldErrorText({ errors, name }: { errors: Record<string, string> | undefined; name: string }) {
  const message = errors?.[name];
  return message ? (
    <span id={`${name}-error`} className={ui.fieldError}>
      {message}
    </span>
  ) : null;
}
