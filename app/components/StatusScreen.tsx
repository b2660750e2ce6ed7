import type { ReactNode } from "react";
import * as styles from "./StatusScreen.css";

/** A centred message with actions: not found, no accounts, unavailable. */
export function StatusScreen({
  eyebrow,
  title,
  children,
  actions,
}: {
  eyebrow?: string;
  title: string;
  children: ReactNode;
  actions?: ReactNode;
}) {
  return (
    <section className={styles.screen} aria-labelledby="status-title">
      {eyebrow ? <span className={styles.code}>{eyebrow}</span> : null}
      <h1 id="status-title">{title}</h1>
      {children}
      {actions ? <div className={styles.actions}>{actions}</div> : null}
    </section>
  );
}

export const statusStyles = styles;
