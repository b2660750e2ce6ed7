import type { InputHTMLAttributes, ReactNode } from "react";
import * as styles from "./Form.css";

/**
 * A labelled input with its hint and error tied to it (aria-describedby), and
 * aria-invalid when it has an error, so screen readers announce both.
 */
export function Field({
  id,
  label,
  error,
  hint,
  ...input
}: { id: string; label: string; error?: string | null; hint?: ReactNode } & InputHTMLAttributes<HTMLInputElement>) {
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(" ") || undefined;
  return (
    <div className={styles.field}>
      <label className={styles.label} htmlFor={id}>
        {label}
      </label>
      {hint ? (
        <p id={hintId} className={styles.hint}>
          {hint}
        </p>
      ) : null}
      <input
        id={id}
        className={styles.input}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        {...input}
      />
      {error ? (
        <p id={errorId} className={styles.error}>
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** A message for the whole form: role=alert for problems, role=status for news. */
export function FormMessage({ kind, children, id }: { kind: "error" | "notice"; children: ReactNode; id?: string }) {
  return (
    <div
      id={id}
      role={kind === "error" ? "alert" : "status"}
      className={kind === "error" ? styles.alert : styles.notice}
    >
      {children}
    </div>
  );
}

export const formStyles = styles;
