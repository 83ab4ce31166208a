import ui from "./ui.module.css";

/**
 * A settings form's note under field `name`: its error (id `<name>-error`) when it has one, else its
 * hint (id `<name>-hint`) when given, for the input's aria-describedby.
 */
export function FieldErrorText({ errors, name, hint }: { errors: Record<string, string> | undefined; name: string; hint?: string }) {
  const message = errors?.[name];
  if (message) {
    return (
      <span id={`${name}-error`} className={ui.fieldError}>
        {message}
      </span>
    );
  }
  return hint ? (
    <span id={`${name}-hint`} className={ui.hint}>
      {hint}
    </span>
  ) : null;
}
