import * as styles from "./FullPageLoading.css";

export const DEFAULT_LOADING_TEXT = "Preparing Account information";

/** The full-page loading state of spec §2, announced to screen readers as a status. */
export function FullPageLoading({ text = DEFAULT_LOADING_TEXT }: { text?: string }) {
  return (
    <div className={styles.overlay} role="status" aria-live="polite">
      <div className={styles.spinner} aria-hidden="true" />
      <p>{text}</p>
    </div>
  );
}
