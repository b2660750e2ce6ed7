import { useId, useState, useSyncExternalStore, type ReactNode } from "react";
import { secondaryButton } from "./Button.css";
import * as styles from "./PayIdPanel.css";
import { useT } from "./useT";

/** What a page's loader hands the panel: the account's PayID, or that it cannot be had right now. */
export type PayIdPanelData = { status: "ready"; payId: string; name: string } | { status: "unavailable" };

/**
 * "Pay from your bank with PayID": the account's receivable PayID, large and selectable, the
 * name the payer's bank will show for it, how to pay it, and a Copy button. The button needs
 * JavaScript: on a page that hydrates it is rendered once React runs; a page without React brings
 * its own (`copy`, decision 084). Without JavaScript nobody sees a button that does nothing (the
 * PayID selects with one click instead).
 */
export function PayIdPanel({
  data,
  invoiceNumber,
  copy,
}: {
  data: PayIdPanelData;
  invoiceNumber?: string;
  /**
   * The Copy button of a page that ships no React (decision 084: the dashboard's `EnhancedCopy`),
   * kept out of this shared component so the pages that hydrate do not carry its markup.
   */
  copy?: (payId: string) => ReactNode;
}) {
  const t = useT();
  const headingId = useId();
  if (data.status === "unavailable") {
    return (
      <section className={styles.panel} aria-labelledby={headingId}>
        <h2 id={headingId} className={styles.heading}>
          {t("payid.title")}
        </h2>
        <p className={styles.how}>{t("payid.unavailable")}</p>
      </section>
    );
  }
  return (
    <section className={styles.panel} aria-labelledby={headingId}>
      <h2 id={headingId} className={styles.heading}>
        {t("payid.title")}
      </h2>
      <p className={styles.payId} data-testid="payid">
        {data.payId}
      </p>
      <p className={styles.name}>{t("payid.name", { name: data.name })}</p>
      <p className={styles.how}>{invoiceNumber ? t("payid.how.invoice", { number: invoiceNumber }) : t("payid.how")}</p>
      {copy ? copy(data.payId) : <CopyButton text={data.payId} />}
    </section>
  );
}

type CopyState = "idle" | "copied" | "refused";

const noSubscription = () => () => {};

/** False on the server and while hydrating (so the markup matches), true once React runs the page. */
function useHydrated() {
  return useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
}

export function CopyButton({ text }: { text: string }) {
  const t = useT();
  const hydrated = useHydrated();
  const [state, setState] = useState<CopyState>("idle");
  if (!hydrated) return null;
  const copy = async () => {
    setState("idle"); // so a second copy is announced again
    try {
      // Absent on insecure origins and in some browsers: that is a refusal too.
      if (!navigator.clipboard) throw new Error("no clipboard");
      await navigator.clipboard.writeText(text);
      setState("copied");
    } catch {
      setState("refused");
    }
  };
  return (
    <div className={styles.actions}>
      <button type="button" className={secondaryButton} onClick={copy}>
        {t("payid.copy")}
      </button>
      <p className={styles.status} role="status" aria-live="polite">
        {state === "copied" ? t("payid.copied") : state === "refused" ? t("payid.copyRefused") : ""}
      </p>
    </div>
  );
}
