import { Form, Link } from "@remix-run/react";
import type { ReactNode } from "react";
import { formStyles } from "./Form";
import * as styles from "./Table.css";
import { useT } from "./useT";

/**
 * A list page's filters: a plain GET form (works without JavaScript, and the query string
 * keeps the choice across reloads and back), its fields in a grid that is one column on a
 * phone, and the buttons last.
 */
export function Filters({ label, actions, children }: { label: string; actions: ReactNode; children: ReactNode }) {
  return (
    <Form method="get" className={styles.filters} aria-label={label}>
      {children}
      <div className={styles.filterActions}>{actions}</div>
    </Form>
  );
}

/** One labelled select of a `Filters` form. */
export function FilterSelect({
  id,
  label,
  defaultValue,
  options,
}: {
  id: string;
  label: string;
  defaultValue: string;
  options: { value: string; label: string }[];
}) {
  return (
    <div className={formStyles.field}>
      <label className={formStyles.label} htmlFor={id}>
        {label}
      </label>
      <select id={id} name={id} defaultValue={defaultValue} className={formStyles.input}>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );
}

/** Previous, "Page n of m" and next, as links (`hrefFor` builds each page's address). */
export function Pager({
  label,
  page,
  pages,
  hrefFor,
}: {
  label: string;
  page: number;
  pages: number;
  hrefFor: (page: number) => string;
}) {
  const t = useT();
  return (
    <nav aria-label={label} className={styles.pager}>
      {page > 1 ? (
        <Link to={hrefFor(page - 1)} rel="prev" className={styles.pagerLink}>
          {t("pager.previous")}
        </Link>
      ) : null}
      <span>{t("pager.position", { page, pages })}</span>
      {page < pages ? (
        <Link to={hrefFor(page + 1)} rel="next" className={styles.pagerLink}>
          {t("pager.next")}
        </Link>
      ) : null}
    </nav>
  );
}
