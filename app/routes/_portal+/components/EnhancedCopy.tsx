import { secondaryButton } from "~/components/Button.css";
import { CopyButton } from "~/components/PayIdPanel";
import * as styles from "~/components/PayIdPanel.css";
import { useT } from "~/components/useT";

/**
 * The PayID's Copy button on the dashboard, a page that ships no React (decision 084): sent in a
 * `hidden` box that `public/enhance.js` shows, and whose click it handles, saying the outcome in
 * the status beside it. Without JavaScript it stays hidden (the PayID selects with one click).
 * Drawn by React after a client navigation from a page that has it, it is React's own button.
 */
export function EnhancedCopy({ text }: { text: string }) {
  const t = useT();
  if (typeof document !== "undefined") return <CopyButton text={text} />;
  return (
    <div hidden>
      <div className={styles.actions}>
        <button
          type="button"
          className={secondaryButton}
          data-copy={text}
          data-copied={t("payid.copied")}
          data-refused={t("payid.copyRefused")}
        >
          {t("payid.copy")}
        </button>
        <p className={styles.status} role="status" aria-live="polite" data-copy-status="" />
      </div>
    </div>
  );
}
