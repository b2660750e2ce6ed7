import { useEffect, useRef, type ReactNode } from "react";
import * as styles from "./ErrorSummary.css";
import { FormMessage } from "./Form";

/**
 * A refused form's error summary at the top (GOV.UK's pattern): a title and a list whose links go
 * to each field. Without JavaScript (and on a page that ships none, decision 084) the refused form
 * comes back as a new page, and the browser puts focus here (`autofocus`), which also scrolls it
 * into view; with it the page is not reloaded, so focus is moved here each time a new `answer`
 * (the action's data) arrives.
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
    // The summary is the first thing to read after a refused post: focus starts here (WCAG 3.3.1).
    // eslint-disable-next-line jsx-a11y/no-autofocus
    <div ref={summary} tabIndex={-1} autoFocus={Boolean(answer)} className={styles.summary}>
      <FormMessage kind="error" id={id}>
        <strong>{title}</strong>
        <ul className={styles.list}>{children}</ul>
      </FormMessage>
    </div>
  );
}
