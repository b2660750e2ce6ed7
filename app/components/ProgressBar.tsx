import { useFetchers, useNavigation } from "@remix-run/react";
import { visuallyHidden } from "~/styles/global.css";
import * as styles from "./ProgressBar.css";
import { useT } from "./useT";

/**
 * A slim bar at the top while a navigation or form submission is pending (with
 * JavaScript). Without JavaScript the browser's own loading indicator does this job.
 * Screen readers hear "Loading" (in the page's language) once through a polite live region.
 */
export function ProgressBar() {
  const navigation = useNavigation();
  const t = useT();
  const fetchers = useFetchers();
  const busy = navigation.state !== "idle" || fetchers.some((fetcher) => fetcher.state === "submitting");
  return (
    <>
      <div className={styles.bar} data-state={busy ? "busy" : "idle"} aria-hidden="true" />
      <div role="status" aria-live="polite" className={visuallyHidden}>
        {busy ? t("loading.short") : ""}
      </div>
    </>
  );
}
