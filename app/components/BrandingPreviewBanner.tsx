import { Form, Link } from "@remix-run/react";
import * as styles from "./BrandingPreviewBanner.css";
import { useT } from "./useT";

/**
 * Shown above every page while the admin's session previews a draft brand (issue 16), so a
 * draft is never mistaken for what customers see. Stopping is a plain POST (no script needed).
 */
export function BrandingPreviewBanner() {
  const t = useT();
  return (
    <div className={styles.banner} role="region" aria-label={t("branding.banner.label")}>
      <p className={styles.bannerText}>
        {t("shell.preview.banner")} <Link to="/admin/branding">{t("shell.preview.manage")}</Link>
      </p>
      <Form method="post" action="/admin/branding/preview">
        <button type="submit" name="intent" value="stop" className={styles.bannerButton}>
          {t("branding.preview.stop")}
        </button>
      </Form>
    </div>
  );
}
