import { useEffect, useRef, useState } from "react";
import { CUSTOM_COLOUR_CHOICE } from "~/lib/brand-admin";
import { deriveBrand, parseBrandColour, type PairCheck } from "~/lib/brand-colours";
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
 *
 * With JavaScript the same derivation (app/lib/brand-colours.ts, the server's own) runs as the
 * colour is typed or picked: the page says at once whether the colour passes, the contrast
 * table follows it (`onChecks`), and a refused colour offers "Use #…" as a button that puts
 * the nearest accepted colour in the field. Nothing is saved until Save; the server decides
 * again then.
 */
export function BrandingThemeChooser({
  swatches,
  theme,
  brandColour,
  themeError,
  colourError,
  suggestion,
  onChecks,
  serverAnswer,
}: {
  /** Each theme's colour roles, from the loader (the colour module stays on the server). */
  swatches: Readonly<Record<(typeof THEME_NAMES)[number], Readonly<ThemeColors>>>;
  theme: string;
  brandColour: string;
  themeError?: string | null;
  colourError?: string | null;
  suggestion?: string | null;
  /** The live contrast checks of the typed colour (null: none to show, use the server's). */
  onChecks?: (checks: PairCheck[] | null) => void;
  /** The last answer of the server to a save: a new one replaces the live check with its verdict. */
  serverAnswer?: unknown;
}) {
  const t = useT();
  const [live, setLive] = useState<LiveCheck | null>(null);
  const customRadio = useRef<HTMLInputElement>(null);
  // A new answer from the server (a save) replaces the live check with the server's verdict.
  const [answered, setAnswered] = useState(serverAnswer);
  if (answered !== serverAnswer) {
    setAnswered(serverAnswer);
    setLive(null);
  }
  // The two fields are the browser's own (uncontrolled): what is typed or picked before the page's script
  // runs (a slow phone's first seconds, decision 087) stays in them when it hydrates. The script keeps them
  // in step and checks the colour.
  const colourField = useRef<HTMLInputElement>(null);
  const pickerField = useRef<HTMLInputElement>(null);
  const pickerDefault = /^#[0-9a-f]{6}$/i.test(brandColour) ? brandColour.toLowerCase() : "#2b4c7e";
  const update = (value: string, choose = true) => {
    if (colourField.current && colourField.current.value !== value) colourField.current.value = value;
    const colour = parseBrandColour(value);
    if (!colour) {
      setLive(value.trim() ? { state: "invalid" } : null);
      onChecks?.(null);
      return;
    }
    if (pickerField.current) pickerField.current.value = colour;
    // Typing a colour means choosing it: the custom choice is selected with it.
    if (choose && customRadio.current) customRadio.current.checked = true;
    const derived = deriveBrand(colour);
    setLive(
      derived.ok ? { state: "passes", colour } : { state: "refused", colour, suggestion: derived.suggestion ?? null },
    );
    onChecks?.(derived.checks);
  };
  // Once, as it hydrates: a colour changed before then is checked as the server will read it (the typed
  // colour wins, else the picked one). Which theme is chosen stays the person's own choice.
  useEffect(() => {
    const text = colourField.current!.value;
    const early = text.trim() || pickerField.current!.value === pickerDefault ? text : pickerField.current!.value;
    if (early !== brandColour) update(early, false);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
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
                  ref={colourField}
                  id="brand-colour"
                  name="brandColour"
                  className={formStyles.input}
                  defaultValue={brandColour}
                  onChange={(event) => update(event.currentTarget.value)}
                  maxLength={20}
                  autoComplete="off"
                  spellCheck={false}
                  aria-invalid={colourError ? true : undefined}
                  aria-describedby={[colourHintId, colourErrorId].filter(Boolean).join(" ")}
                />
                <input
                  ref={pickerField}
                  type="color"
                  name="brandColourPicker"
                  className={styles.picker}
                  defaultValue={pickerDefault}
                  aria-label={t("branding.colour.picker")}
                  onChange={(event) => update(event.currentTarget.value)}
                />
              </div>
              {/* Always in the page, so screen readers announce what the live check says. */}
              <p role="status" className={live?.state === "passes" ? styles.pass : formStyles.hint}>
                {live?.state === "passes" ? t("branding.colour.live.passes", { colour: live.colour }) : null}
                {live?.state === "refused" ? t("branding.colour.live.refused", { colour: live.colour }) : null}
                {live?.state === "invalid" ? t("branding.error.colour.invalid") : null}
              </p>
              {live?.state === "refused" && live.suggestion ? (
                <button type="button" className={buttons.secondaryButton} onClick={() => update(live.suggestion!)}>
                  {t("branding.colour.useLive", { colour: live.suggestion })}
                </button>
              ) : null}
              {colourError && live === null ? (
                <p id={colourErrorId} className={formStyles.error}>
                  {t(colourError as MessageKey)}
                  {suggestion ? ` ${t("branding.colour.suggestion", { colour: suggestion })}` : null}
                </p>
              ) : null}
              {colourError && suggestion && live === null ? (
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

type LiveCheck =
  | { state: "invalid" }
  | { state: "passes"; colour: string }
  | { state: "refused"; colour: string; suggestion: string | null };
