import type { MessageKey } from "~/lib/i18n";
import { translator } from "~/lib/i18n/catalog";
import type { LanguageCode } from "~/lib/i18n/languages";
import { pdfMeta } from "./pdf-meta.server";
import { TaggedPdf, type PdfBrand } from "./pdf.server";

/** A statement line as the ledger reads it (the accounts service's, by shape). */
type Line = {
  date: string;
  type: string;
  reference: string;
  description: string;
  debitCents: number;
  creditCents: number;
};

const AGEING_BANDS = ["current", "days1to30", "days31to60", "days61to90", "over90"] as const;
/** Lines handed to the ledger at a time (it yields to the event loop within a block too). */
const LEDGER_BLOCK = 250;

export type StatementPdfInput = {
  brand: PdfBrand;
  /** The page's language: the PDF is in the words of the page it was asked from. */
  language: LanguageCode;
  account: { name: string; number: string };
  /** The period, as YYYY-MM-DD. */
  from: string;
  to: string;
  /** What the account owed when the period began (every line before it). */
  openingCents: number;
  /** The period's lines, oldest first: the charges, credits and closing balance are summed from these. */
  lines: readonly Line[];
  ageing: { asAt: string; bands: Record<(typeof AGEING_BANDS)[number], number>; totalCents: number };
  /** The page's own formats: the spec's date (§9) and the business's currency. */
  format: { date: (day: string) => string; money: (cents: number) => string };
};

/**
 * A statement for a period as a clerk files it (issue 34): the account and the period; the opening
 * balance, the period's charges and credits and the closing balance; every line with the balance after
 * it; and the balance by age as at the business's today. The period's figures are summed from the very
 * lines the file lists, so a payment that lands while it is being made is in both or in neither. The
 * lines are drawn a block at a time, with the event loop's turns between (`TaggedPdf.ledger`).
 */
export async function statementPdf(input: StatementPdfInput): Promise<Buffer> {
  const { account, brand, format, lines } = input;
  let chargesCents = 0;
  let creditsCents = 0;
  for (const line of lines) {
    chargesCents += line.debitCents;
    creditsCents += line.creditCents;
  }
  const closingCents = input.openingCents + chargesCents - creditsCents;
  const t = translator(input.language);
  const from = format.date(input.from);
  const to = format.date(input.to);
  const title = t("pdf.statement.title");
  const subject = t("pdf.subject.statement", { account: account.name, business: brand.businessName, from, to });
  const pdf = new TaggedPdf(
    pdfMeta(input.language, brand.businessName, `${title} · ${account.number}`, subject),
    brand,
  );
  pdf.heading(1, title);
  pdf.facts([
    [t("pdf.statement.account"), `${account.name} (${account.number})`],
    [t("pdf.statement.period"), t("pdf.statement.periodValue", { from, to })],
    [t("pdf.statement.opening", { date: from }), format.money(input.openingCents)],
    [t("pdf.statement.charges"), format.money(chargesCents)],
    [t("pdf.statement.credits"), format.money(creditsCents)],
    [t("pdf.statement.closing", { date: to }), format.money(closingCents), true],
  ]);

  pdf.heading(2, t("pdf.statement.lines"));
  let balance = input.openingCents;
  const money = (cents: number) => (cents === 0 ? "" : format.money(cents));
  async function* rows() {
    yield [[from, t("pdf.statement.openingRow"), "", "", format.money(balance)]];
    for (let start = 0; start < lines.length; start += LEDGER_BLOCK) {
      yield lines.slice(start, start + LEDGER_BLOCK).map((line) => {
        balance += line.debitCents - line.creditCents;
        return [
          format.date(line.date),
          details(line),
          money(line.debitCents),
          money(line.creditCents),
          format.money(balance),
        ];
      });
    }
    yield [[to, t("pdf.statement.closingRow"), "", "", format.money(closingCents)]];
  }
  const details = (line: Line) => {
    const type = t(`statements.type.${line.type}` as MessageKey);
    const named = `${type} ${line.reference}`;
    return line.description && line.description !== type ? `${named} · ${line.description}` : named;
  };
  await pdf.ledger(
    [
      { header: t("pdf.col.date"), width: 68 },
      { header: t("pdf.col.details"), wrap: true },
      { header: t("pdf.col.charges"), align: "right", width: 68 },
      { header: t("pdf.col.credits"), align: "right", width: 68 },
      { header: t("pdf.col.balance"), align: "right", width: 74 },
    ],
    rows(),
  );
  if (lines.length === 0) pdf.paragraph(t("pdf.statement.none"));

  pdf.heading(2, t("ageing.title"));
  pdf.paragraph(t("ageing.asAt", { date: format.date(input.ageing.asAt) }));
  pdf.facts([
    ...AGEING_BANDS.map((band) => [t(`ageing.${band}`), format.money(input.ageing.bands[band])] as const),
    [t("ageing.total"), format.money(input.ageing.totalCents), true] as const,
  ]);
  return pdf.finish();
}
