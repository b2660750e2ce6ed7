import { formatRecordedTime, type AgreementRecordFacts } from "~/lib/agreements";
import type { MessageKey } from "~/lib/i18n";
import { translator } from "~/lib/i18n/catalog";
import type { LanguageCode } from "~/lib/i18n/languages";
import { parseSimpleMarkdown } from "~/lib/simple-markdown";
import { pdfFileName } from "./pdf-pages.server";
import { pdfMeta } from "./pdf-meta.server";
import { TaggedPdf, type PdfBrand } from "./pdf.server";

export type AgreementPdfFacts = AgreementRecordFacts & { kind: string };

export function agreementPdfFileName(
  businessName: string,
  facts: Pick<AgreementPdfFacts, "reference" | "version" | "decision">,
) {
  return pdfFileName(businessName, `${facts.reference} v${facts.version} ${facts.decision}`);
}

/**
 * An agreement as accepted (or declined), as a clerk files it (issue 34): the record first — which
 * agreement and version, for which account, who decided, how and when (the business's own time zone,
 * and UTC), from where, and the SHA-256 of the text — then the version's text exactly as it was offered,
 * its headings, paragraphs and lists tagged as such. The same facts as the text record (decision 036),
 * whose bytes anyone can hash; the PDF is the copy a phone opens and a filing cabinet keeps.
 */
export function agreementPdf(input: {
  brand: PdfBrand;
  language: LanguageCode;
  facts: AgreementPdfFacts;
}): Promise<Buffer> {
  const { brand, facts } = input;
  const t = translator(input.language);
  const accepted = facts.decision === "accepted";
  const title = t(accepted ? "pdf.agreement.titleAccepted" : "pdf.agreement.titleDeclined", {
    title: facts.documentTitle,
  });
  const zone = facts.timeZone;
  const pdf = new TaggedPdf(
    pdfMeta(
      input.language,
      brand.businessName,
      title,
      t("pdf.subject.agreement", {
        title: facts.documentTitle,
        version: facts.version,
        account: facts.account.name,
        business: brand.businessName,
      }),
    ),
    brand,
  );
  pdf.heading(1, title);
  pdf.paragraph(
    t(accepted ? "agreement.record.accepted" : "agreement.record.declined", {
      name: facts.typedName,
      version: facts.version,
      time: `${formatRecordedTime(facts.decidedAt, zone)} (${zone})`,
    }),
  );
  pdf.facts([
    [t("pdf.agreement.agreement"), `${facts.documentTitle} (${t(`agreement.kind.${facts.kind}` as MessageKey)})`],
    [t("pdf.agreement.reference"), facts.reference],
    [t("pdf.statement.account"), `${facts.account.name} (${facts.account.number})`],
    [
      t("agreement.record.version"),
      t("agreement.record.versionValue", {
        version: facts.version,
        date: `${formatRecordedTime(facts.publishedAt, zone)} (${zone})`,
      }),
    ],
    [
      t("agreement.record.decision"),
      t(accepted ? "agreement.record.decision.accepted" : "agreement.record.decision.declined"),
      true,
    ],
    [t("agreement.record.name"), facts.typedName],
    [t("agreement.record.contact"), facts.contactEmail],
    [t("agreement.record.time"), `${formatRecordedTime(facts.decidedAt, zone)} (${zone})`],
    [t("pdf.agreement.utc"), new Date(facts.decidedAt).toISOString()],
    [t("pdf.agreement.address"), facts.clientAddress],
    [t("pdf.agreement.sha256"), facts.bodySha256, "code"],
  ]);
  pdf.paragraph(t("pdf.agreement.check"), { muted: true });

  pdf.heading(2, t("agreement.text", { title: facts.documentTitle, version: facts.version }));
  for (const block of parseSimpleMarkdown(facts.body)) {
    // The text's own headings sit below the document's two: its # is this file's H3, ### its H5.
    if (block.type === "heading") pdf.heading((block.level + 2) as 3 | 4 | 5, block.text);
    else if (block.type === "paragraph") pdf.paragraph(block.text);
    else pdf.list(block.items);
  }
  return pdf.finish();
}
