import * as styles from "./FullPageLoading.css";
import { useT } from "./useT";

/** The full-page loading state of spec §2, announced to screen readers as a status. */
export function FullPageLoading({ text }: { text?: string }) {
  const t = useT();
  return (
    <div className={styles.overlay} role="status" aria-live="polite">
      <div className={styles.spinner} aria-hidden="true" />
      <p>{text ?? t("loading.text")}</p>
    </div>
  );
}
