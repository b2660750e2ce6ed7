import type { LoaderFunctionArgs } from "@remix-run/node";
import { formatMoney, formatNumber } from "~/lib/format";
import { parseStatementPeriod, STATEMENT_PDF_MAX_LINES } from "~/lib/statement-query";
import {
  businessToday,
  getAgeing,
  getStatementPeriod,
  pageDates,
  pageLanguage,
  pdfBrand,
  pdfFileName,
  pdfResponse,
  requireAccountPage,
  statementLinesInOrder,
  statementPdf,
} from "./portal.server";
import { translator } from "~/lib/i18n/catalog";

/**
 * The statement for a period as an A4 PDF to file (issue 34): the selected account only (the page's
 * access), the page's `from` and `to` (12 months up to today when none), every line of the period with
 * the opening and closing balances, and the balance by age. A period that is not real dates, longer
 * than five years or with more than 10,000 lines is a 400 that says what to choose instead; nothing is
 * read for it beyond the count.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const { branding, account } = await requireAccountPage(request);
  const language = await pageLanguage(request);
  const t = translator(language);
  const today = businessToday(branding.timeZone);
  const period = parseStatementPeriod(new URL(request.url).searchParams, today);
  if (!period.ok) return refuse(t(period.error === "badDate" ? "pdf.statement.badDate" : "pdf.statement.tooLong"));
  const { openingCents, lineCount } = await getStatementPeriod(
    branding.businessId,
    account.accountId,
    period.from,
    period.to,
  );
  if (lineCount > STATEMENT_PDF_MAX_LINES) {
    return refuse(t("pdf.statement.tooMany", { max: formatNumber(STATEMENT_PDF_MAX_LINES) }));
  }
  const lines = [];
  for await (const block of statementLinesInOrder(branding.businessId, account.accountId, period.from, period.to)) {
    lines.push(...block);
  }
  const [brand, ageing, dates] = await Promise.all([
    pdfBrand(branding),
    getAgeing(branding.businessId, account.accountId, today),
    pageDates(request, branding),
  ]);
  const bytes = await statementPdf({
    brand,
    language,
    account: { name: account.name, number: account.number },
    from: period.from,
    to: period.to,
    openingCents,
    lines,
    ageing,
    format: { date: dates.date, money: (cents) => formatMoney(cents, { currency: branding.currency }) },
  });
  return pdfResponse(
    bytes,
    pdfFileName(branding.businessName, `Statement ${account.number} ${period.from} to ${period.to}`),
  );
}

/** A clear 400: plain words a person reads in the browser, kept by nothing. */
function refuse(message: string) {
  return new Response(message, {
    status: 400,
    headers: {
      "Content-Type": "text/plain; charset=utf-8",
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
