import type { BrandChangeView } from "~/lib/brand-admin";
import { BRAND_FIELD_KEYS } from "~/lib/brand-admin";
import type { MessageKey } from "~/lib/i18n";
import { isThemeName } from "~/themes/names";
import * as styles from "./Branding.css";
import { useT } from "~/components/useT";

const FILE_FIELDS = new Set(["logo", "favicon"]);

/** A brand's changes, one line each: "Colours: the Navy blue theme → your colour #0f766e", "Logo: the standard one → an uploaded file". */
export function BrandingChanges({ changes }: { changes: BrandChangeView[] }) {
  const t = useT();
  const shown = (field: string, value: string | null) => {
    if (FILE_FIELDS.has(field)) return value ? t("branding.changes.uploaded") : t("branding.changes.standard");
    if (field === "theme" && isThemeName(value)) return t(`branding.theme.${value}` as MessageKey);
    if (field === "look" && value?.startsWith("theme:")) {
      const theme = value.slice("theme:".length);
      if (isThemeName(theme))
        return t("branding.changes.lookTheme", { theme: t(`branding.theme.${theme}` as MessageKey) });
    }
    if (field === "look" && value?.startsWith("colour:")) {
      return t("branding.changes.lookColour", { colour: value.slice("colour:".length) });
    }
    // A history line of a custom colour set or removed: no colour is the theme's own.
    if (field === "brandColour" && !value) return t("branding.changes.themeColours");
    return value || t("branding.changes.none");
  };
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
              from: shown(change.field, change.from),
              to: shown(change.field, change.to),
            })}
          </li>
        );
      })}
    </ul>
  );
}
