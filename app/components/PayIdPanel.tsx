import { useMatches } from "@remix-run/react";
import { useId, useState, useSyncExternalStore } from "react";
import { pageEnhanced } from "~/lib/client-runtime";
import { secondaryButton } from "./Button.css";
import * as styles from "./PayIdPanel.css";
import { useT } from "./useT";

/** What a page's loader hands the panel: the account's PayID, or that it cannot be had right now. */
export type PayIdPanelData = { status: "ready"; payId: string; name: string } | { status: "unavailable" };

/**
 * "Pay from your bank with PayID": the account's receivable PayID, large and selectable, the
 * name the payer's bank will show for it, how to pay it, and a Copy button. The button needs
 * JavaScript: on a page that hydrates it is rendered once React runs; on a page without React
 * that loads the small shared conveniences (decision 084) it is sent hidden, and `enhance.js`
 * shows it and copies. Without JavaScript nobody sees a button that does nothing (the PayID
 * selects with one click instead).
 */
export function PayIdPanel({ data, invoiceNumber }: { data: PayIdPanelData; invoiceNumber?: string }) {
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
      <CopyButton text={data.payId} />
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

function CopyButton({ text }: { text: string }) {
  const t = useT();
  const hydrated = useHydrated();
  const [state, setState] = useState<CopyState>("idle");
  const matches = useMatches();
  // Only in the server's document of a page without React (so never part of a hydrated page).
  const forEnhance = typeof document === "undefined" && pageEnhanced(matches);
  if (forEnhance) {
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
