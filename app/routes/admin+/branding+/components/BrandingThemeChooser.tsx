import { useState } from "react";
import { CUSTOM_COLOUR_CHOICE } from "~/lib/brand-admin";
import type { MessageKey } from "~/lib/i18n";
import { THEME_NAMES } from "~/themes/names";
import type { ThemeColors } from "~/themes/tokens";
import * as styles from "./Branding.css";
import * as buttons from "~/components/Button.css";
import { formStyles } from "~/components/Form";
import { useT } from "~/components/useT";

const SWATCH_ROLES: (keyof ThemeColors)[] = [
  "primary",
  "secondary",
  "tertiary",
  "link",
  "linkHover",
  "button",
  "buttonHover",
  "bannerBackground",
  "bannerText",
  "bannerIcon",
  "bannerIconBackground",
];

const CELL = 20;

/** A theme's eleven colour roles as a strip of squares (decorative: the label names the theme). */
export function BrandingSwatch({ colours }: { colours: Readonly<ThemeColors> }) {
  const width = SWATCH_ROLES.length * CELL;
  return (
    <svg
      className={styles.swatch}
      width={width}
      height={CELL}
      viewBox={`0 0 ${width} ${CELL}`}
      aria-hidden="true"
      focusable="false"
    >
      {SWATCH_ROLES.map((role, index) => (
        <rect
          key={role}
          x={index * CELL}
          y={0}
          width={CELL}
          height={CELL}
          fill={colours[role]}
          stroke="#94a3b8"
          strokeWidth={1}
        />
      ))}
    </svg>
  );
}

/**
 * The colour choice: fifteen theme radios, each with its swatch, or a custom brand colour
 * (typed, or picked with the browser's colour input; a typed colour wins, so the form works
 * the same without JavaScript). The server derives every role from it and says why it refuses.
 */
export function BrandingThemeChooser({
  swatches,
  theme,
  brandColour,
  themeError,
  colourError,
  suggestion,
}: {
  /** Each theme's colour roles, from the loader (the colour module stays on the server). */
  swatches: Readonly<Record<(typeof THEME_NAMES)[number], Readonly<ThemeColors>>>;
  theme: string;
  brandColour: string;
  themeError?: string | null;
  colourError?: string | null;
  suggestion?: string | null;
}) {
  const t = useT();
  const [typed, setTyped] = useState(brandColour);
  const pickerValue = /^#[0-9a-f]{6}$/i.test(typed) ? typed.toLowerCase() : "#2b4c7e";
  const colourHintId = "brand-colour-hint";
  const colourErrorId = colourError ? "brand-colour-error" : undefined;
  return (
    <fieldset className={formStyles.fieldset} aria-describedby={themeError ? "brand-theme-error" : undefined}>
      <legend className={formStyles.legend}>{t("branding.colours.legend")}</legend>
      <p className={formStyles.hint}>{t("branding.colours.hint")}</p>
      {themeError ? (
        <p id="brand-theme-error" className={formStyles.error}>
          {t(themeError as MessageKey)}
        </p>
      ) : null}
      <div className={styles.swatchGrid}>
        {THEME_NAMES.map((name) => (
          <div key={name} className={styles.swatchOption}>
            <input
              type="radio"
              id={`brand-theme-${name}`}
              name="theme"
              value={name}
              defaultChecked={theme === name}
              className={formStyles.checkbox}
            />
            <label htmlFor={`brand-theme-${name}`} className={styles.swatchLabel}>
              {t(`branding.theme.${name}` as MessageKey)}
              <BrandingSwatch colours={swatches[name]} />
            </label>
          </div>
        ))}
        <div className={styles.swatchOption}>
          <input
            type="radio"
            id="brand-theme-custom"
            name="theme"
            value={CUSTOM_COLOUR_CHOICE}
            defaultChecked={theme === CUSTOM_COLOUR_CHOICE}
            className={formStyles.checkbox}
          />
          <label htmlFor="brand-theme-custom" className={styles.swatchLabel}>
            {t("branding.theme.custom")}
          </label>
          <div className={styles.customFields}>
            <div className={formStyles.field}>
              <label className={formStyles.label} htmlFor="brand-colour">
                {t("branding.field.brandColour")}
              </label>
              <p id={colourHintId} className={formStyles.hint}>
                {t("branding.colour.hint")}
              </p>
              <div className={styles.colourRow}>
                <input
                  id="brand-colour"
                  name="brandColour"
                  className={formStyles.input}
                  value={typed}
                  onChange={(event) => setTyped(event.currentTarget.value)}
                  maxLength={20}
                  autoComplete="off"
                  spellCheck={false}
                  aria-invalid={colourError ? true : undefined}
                  aria-describedby={[colourHintId, colourErrorId].filter(Boolean).join(" ")}
                />
                <input
                  type="color"
                  name="brandColourPicker"
                  className={styles.picker}
                  value={pickerValue}
                  aria-label={t("branding.colour.picker")}
                  onChange={(event) => setTyped(event.currentTarget.value)}
                />
              </div>
              {colourError ? (
                <p id={colourErrorId} className={formStyles.error}>
                  {t(colourError as MessageKey)}
                  {suggestion ? ` ${t("branding.colour.suggestion", { colour: suggestion })}` : null}
                </p>
              ) : null}
              {colourError && suggestion ? (
                <>
                  {/* One tap takes the nearest colour that passes and saves the draft with it, JS or not. */}
                  <input type="hidden" name="suggestedColour" value={suggestion} />
                  <button type="submit" name="intent" value="useSuggestion" className={buttons.secondaryButton}>
                    {t("branding.colour.useSuggestion", { colour: suggestion })}
                  </button>
                </>
              ) : null}
            </div>
          </div>
        </div>
      </div>
    </fieldset>
  );
}
