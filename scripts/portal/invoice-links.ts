/**
 * `portal invoice-link create|revoke|list` (issue 31; decision 074): links to pay one invoice, over the
 * same service functions as /api/back-office/invoice-links (no HTTP).
 *
 *   npm run portal -- invoice-link create --host acme.localhost --invoice ACME-1000-INV-023 --to olivia@coastal.example
 *   npm run portal -- invoice-link revoke --host acme.localhost --invoice ACME-1000-INV-023 [--contact olivia@coastal.example]
 *   npm run portal -- invoice-link list --host acme.localhost --invoice ACME-1000-INV-023 --state live
 *
 * Links live only in the emails; --print-link also prints them (demos only).
 */
import type { Command } from "commander";
import { formatMoney } from "../../app/lib/format";
import {
  INVOICE_LINK_STATES,
  listInvoiceLinks,
  revokeInvoiceLinks,
  sendInvoiceLinks,
} from "../../app/services/requests/invoice-links.server";
import {
  businessAt,
  expiry,
  HOST_OPTION,
  hostOf,
  JSON_OPTION,
  linkCollector,
  pageLimit,
  PRINT_LINK_OPTION,
  repeated,
  required,
  runVerb,
  UsageError,
  verb,
  type Run,
} from "./cli";

type Options = {
  host?: string;
  invoice?: string;
  to?: string[];
  contact?: string;
  expires?: string;
  state?: string;
  limit?: string;
  cursor?: string;
  printLink?: boolean;
  json?: boolean;
};

/** The verbs of `portal invoice-link`. */
export function addInvoiceLinkVerbs(noun: Command, run: Run) {
  const { out } = run;

  const create = verb(noun, "create", "email each --to a link of their own to pay one invoice")
    .usage("--host <host> --invoice <number|id> --to <contact>… [options]")
    .addHelpText(
      "after",
      "\nEach --to must be a contact of the invoice's account; their earlier links to the invoice stop working." +
        "\nA paid, closed, on-hold or disputed invoice gets no link.",
    )
    .option(HOST_OPTION[0], HOST_OPTION[1])
    .option("--invoice <number|id>", "the invoice (required)")
    .option("--to <contact>", "a recipient, by email or id (repeat for more, at most 10)", repeated)
    .option("--expires <days>", "how long the links work, e.g. 30d (default 14d, at most 90d)")
    .option(PRINT_LINK_OPTION[0], PRINT_LINK_OPTION[1])
    .option(JSON_OPTION[0], JSON_OPTION[1]);
  runVerb(create, run, async (options: Options) => {
    const hostname = hostOf(options.host);
    const invoice = required(options.invoice, "invoice");
    const to = (options.to ?? []).map((value) => value.trim());
    if (to.length === 0 || to.some((value) => value === "")) throw new UsageError("--to is required (one or more).");
    if (to.length > 10) throw new UsageError("At most 10 --to at once.");
    const { expiresInDays, expiresAt } = expiry(options.expires);
    if (expiresAt) throw new UsageError("invoice-link create takes --expires in days, e.g. 30d.");
    if (expiresInDays !== undefined && (expiresInDays < 1 || expiresInDays > 90)) {
      throw new UsageError("--expires must be from 1d to 90d.");
    }
    const { businessId } = await businessAt(hostname);
    const links = linkCollector(options.printLink, out);
    const result = await sendInvoiceLinks(
      businessId,
      { invoice, recipients: to, ...(expiresInDays ? { expiresInDays } : {}) },
      { onLink: links.onLink },
    );
    if (options.json) out(JSON.stringify({ ...result, ...links.json() }, null, 2));
    else {
      const { invoice: sent } = result;
      out(
        `Invoice ${sent.number} (${formatMoney(sent.balanceCents, { currency: sent.currency })} to pay, due ${sent.dueDate}), account ${sent.account.number} ${sent.account.name}:`,
      );
      for (const [index, link] of result.links.entries()) {
        const delivery = result.deliveries[index]!;
        out(
          `  ${delivery.sent ? "emailed" : "NOT emailed"}: ${link.contact.email}, until ${link.expiresAt}${delivery.error ? ` (${delivery.error})` : ""}`,
        );
        if (link.replaced > 0) out(`    ${link.replaced} earlier link(s) of theirs to this invoice no longer work`);
      }
      links.print();
    }
    return result.deliveries.every((d) => d.sent) ? 0 : 1;
  });

  const revoke = verb(noun, "revoke", "the live links to one invoice stop working: everyone's, or one contact's")
    .option(HOST_OPTION[0], HOST_OPTION[1])
    .option("--invoice <number|id>", "the invoice (required)")
    .option("--contact <contact>", "only this contact's links, by email or id")
    .option(JSON_OPTION[0], JSON_OPTION[1]);
  runVerb(revoke, run, async (options: Options) => {
    const hostname = hostOf(options.host);
    const invoice = required(options.invoice, "invoice");
    const contact = options.contact === undefined ? undefined : required(options.contact, "contact");
    const { businessId } = await businessAt(hostname);
    const result = await revokeInvoiceLinks(businessId, { invoice, ...(contact ? { contact } : {}) });
    if (options.json) out(JSON.stringify(result, null, 2));
    else {
      const whose = result.contact ? ` of ${result.contact.email}` : "";
      out(
        result.revoked > 0
          ? `Revoked ${result.revoked} link(s)${whose} to invoice ${result.invoice.number}: they no longer work.`
          : `No live link${whose} to invoice ${result.invoice.number}: nothing to revoke.`,
      );
    }
    return 0;
  });

  const list = verb(noun, "list", "the business's links to single invoices, newest first")
    .option(HOST_OPTION[0], HOST_OPTION[1])
    .option("--invoice <number|id>", "only the links to one invoice")
    .option("--contact <contact>", "only one contact's links, by email or id")
    .option("--state <state>", `only those in one state: ${INVOICE_LINK_STATES.join(", ")}`)
    .option("--limit <n>", "how many on a page, 1-100 (default 25)")
    .option("--cursor <cursor>", "the next page, as the last page said")
    .option(JSON_OPTION[0], JSON_OPTION[1]);
  runVerb(list, run, async (options: Options) => {
    const hostname = hostOf(options.host);
    const limit = pageLimit(options.limit);
    if (options.state !== undefined && !(INVOICE_LINK_STATES as readonly string[]).includes(options.state)) {
      throw new UsageError(`--state must be one of ${INVOICE_LINK_STATES.join(", ")}.`);
    }
    const { businessId } = await businessAt(hostname);
    const page = await listInvoiceLinks(businessId, {
      invoice: options.invoice,
      contact: options.contact,
      state: options.state,
      limit,
      cursor: options.cursor,
    });
    if (options.json) out(JSON.stringify(page, null, 2));
    else {
      if (page.items.length === 0) out("No invoice links.");
      for (const item of page.items) {
        out(
          `${item.invoice.number}  ${item.state}  ${item.contact.email}  sent ${item.createdAt}, until ${item.expiresAt}${item.openCount ? `, opened ${item.openCount}×` : ""}`,
        );
      }
      if (page.nextCursor) out(`\nMore: add --cursor ${page.nextCursor}`);
    }
    return 0;
  });
}
