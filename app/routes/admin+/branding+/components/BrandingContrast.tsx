import { formatRatio, type PairCheck } from "~/lib/brand-colours";
import { CONTRAST_PAIR_KEYS } from "~/lib/brand-admin";
import type { MessageKey } from "~/lib/i18n";
import * as styles from "./Branding.css";
import * as table from "~/components/Table.css";
import { useT } from "~/components/useT";
import { StackedTable } from "~/components/StackedTable";

/** A pair drawn as it renders: a sample letter in the foreground on the background. */
function PairSample({ foreground, background }: { foreground: string; background: string }) {
  const t = useT();
  return (
    <svg className={styles.pairSample} width={44} height={28} viewBox="0 0 44 28" aria-hidden="true" focusable="false">
      <rect x={0.5} y={0.5} width={43} height={27} rx={4} fill={background} stroke="#94a3b8" />
      <text x={22} y={19} textAnchor="middle" fontSize={15} fontWeight={700} fill={foreground}>
        {t("branding.contrast.sampleText")}
      </text>
    </svg>
  );
}

/**
 * Every text/background pair of a brand with its contrast and the WCAG AA minimum it must
 * meet (4.5:1 text, 3:1 large text and controls). A real table; on a phone each row becomes
 * a labelled block (Table.css's `stacked`).
 */
export function BrandingContrast({ checks, caption }: { checks: PairCheck[]; caption: string }) {
  const t = useT();
  const ratio = (value: number) => t("branding.contrast.ratio", { ratio: formatRatio(value) });
  const failing = checks.filter((check) => !check.passes).length;
  // Thirteen pairs make a long list on a phone: folded (a native disclosure, no script), and
  // open when one fails.
  return (
    <details className={styles.contrast} open={failing > 0}>
      <summary className={styles.contrastSummary}>
        {failing > 0
          ? t("branding.contrast.summaryFails", { failing, total: checks.length })
          : t("branding.contrast.summaryPasses", { total: checks.length })}
      </summary>
      <div className={table.scroll}>
        <StackedTable
          caption={<caption className={styles.contrastCaption}>{caption}</caption>}
          rows={checks}
          rowKey={(check) => check.name}
          columns={[
            {
              label: t("branding.contrast.pair"),
              kind: "title",
              cell: (check) =>
                Object.hasOwn(CONTRAST_PAIR_KEYS, check.name)
                  ? t(CONTRAST_PAIR_KEYS[check.name as keyof typeof CONTRAST_PAIR_KEYS] as MessageKey)
                  : check.name,
            },
            {
              label: t("branding.contrast.sample"),
              cell: (check) => <PairSample foreground={check.foreground} background={check.background} />,
            },
            { label: t("branding.contrast.contrast"), kind: "number", cell: (check) => ratio(check.ratio) },
            { label: t("branding.contrast.minimum"), kind: "number", cell: (check) => ratio(check.minimum) },
            {
              label: t("branding.contrast.result"),
              cell: (check) => (
                <span className={check.passes ? styles.pass : styles.fail}>
                  {check.passes ? t("branding.contrast.passes") : t("branding.contrast.fails")}
                </span>
              ),
            },
          ]}
        />
      </div>
    </details>
  );
}
