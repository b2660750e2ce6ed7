import { useFetchers, useNavigation } from "@remix-run/react";
import { visuallyHidden } from "~/styles/global.css";
import * as styles from "./ProgressBar.css";

/**
 * A slim bar at the top while a navigation or form submission is pending (with
 * JavaScript). Without JavaScript the browser's own loading indicator does this job.
 * Screen readers hear "Loading" once through a polite live region.
 */
export function ProgressBar() {
  const navigation = useNavigation();
  const fetchers = useFetchers();
  const busy = navigation.state !== "idle" || fetchers.some((fetcher) => fetcher.state === "submitting");
  return (
    <>
      <div className={styles.bar} data-state={busy ? "busy" : "idle"} aria-hidden="true" />
      <div role="status" aria-live="polite" className={visuallyHidden}>
        {busy ? "Loading" : ""}
      </div>
    </>
  );
}
