import type { ReactNode } from "react";
import * as formStyles from "~/components/Form.css";
import * as styles from "./FieldGroup.css";

/** A fieldset of short, related inputs (each a labelled field) laid out side by side. */
export function FieldGroup({ legend, hint, children }: { legend: string; hint?: ReactNode; children: ReactNode }) {
  return (
    <fieldset className={formStyles.fieldset}>
      <legend className={formStyles.legend}>{legend}</legend>
      {hint ? <p className={formStyles.hint}>{hint}</p> : null}
      <div className={styles.group}>{children}</div>
    </fieldset>
  );
}
