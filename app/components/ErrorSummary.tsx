import { useEffect, useRef, type ReactNode } from "react";
import * as styles from "./ErrorSummary.css";
import { FormMessage } from "./Form";

/**
 * A refused form's error summary at the top (GOV.UK's pattern): a title and a list whose links go
 * to each field. Without JavaScript the refused form comes back as a new page, read from the top;
 * with it the page is not reloaded, so focus is moved here each time a new `answer` (the action's
 * data) arrives, and the reader starts where a reload would have put them.
 */
export function ErrorSummary({
  id,
  title,
  answer,
  children,
}: {
  id: string;
  title: string;
  /** The refused submission's data: a new object each time, which moves focus here again. */
  answer: unknown;
  children: ReactNode;
}) {
  const summary = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (answer) summary.current?.focus();
  }, [answer]);
  return (
    <div ref={summary} tabIndex={-1} className={styles.summary}>
      <FormMessage kind="error" id={id}>
        <strong>{title}</strong>
        <ul className={styles.list}>{children}</ul>
      </FormMessage>
    </div>
  );
}
