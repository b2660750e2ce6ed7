import type { BrandChangeView } from "~/lib/brand-admin";
import { BRAND_FIELD_KEYS } from "~/lib/brand-admin";
import type { MessageKey } from "~/lib/i18n";
import * as styles from "./Branding.css";
import { useT } from "./useT";

/** A brand's changes, one line each: "Theme: Navy blue → Crimson". */
export function BrandingChanges({ changes }: { changes: BrandChangeView[] }) {
  const t = useT();
  const none = t("branding.changes.none");
  return (
    <ul className={styles.changes}>
      {changes.map((change, index) => {
        const key = Object.hasOwn(BRAND_FIELD_KEYS, change.field)
          ? (BRAND_FIELD_KEYS[change.field as keyof typeof BRAND_FIELD_KEYS] as MessageKey)
          : null;
        return (
          <li key={`${change.field}-${index}`}>
            {t("branding.changes.line", {
              field: key ? t(key) : change.field,
              from: change.from || none,
              to: change.to || none,
            })}
          </li>
        );
      })}
    </ul>
  );
}
