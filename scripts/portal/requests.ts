/**
 * `portal request|adhoc|communication|apikey …` (issue 14; decision 032): payment requests, ad-hoc
 * links, a contact's preferences link and API keys, over the same service functions as
 * /api/back-office (no HTTP).
 *
 *   npm run portal -- request create --host acme.localhost --account ACME-1000 --invoice ACME-1000-INV-023 --to olivia@coastal.example
 *   npm run portal -- request list --host acme.localhost --state sent
 *   npm run portal -- request remind --host acme.localhost --request PR-DEMO0001
 *
 * Links live only in the emails; --print-link also prints them (demos only).
 */
import type { Command } from "commander";
import { formatMoney } from "../../app/lib/format";
import { API_SCOPES, createApiKey } from "../../app/services/backoffice/api-keys.server";
import { contactMailLinks } from "../../app/services/communication/contact-mail.server";
import { revokeAdhocLinks, sendAdhocLink } from "../../app/services/requests/adhoc-links.server";
import { findContact } from "../../app/services/requests/lookups.server";
import { cancelPaymentRequest, createPaymentRequest } from "../../app/services/requests/commands.server";
import { getPaymentRequest, listPaymentRequests } from "../../app/services/requests/queries.server";
import { remindPaymentRequest, sendPaymentRequest } from "../../app/services/requests/sending.server";
import {
  businessAt,
  cents,
  expiry,
  HOST_OPTION,
  hostOf,
  JSON_OPTION,
  linkCollector,
  pageLimit,
  PRINT_LINK_OPTION,
  repeated,
  required,
  UsageError,
  verb,
  runVerb,
  type Out,
  type Run,
} from "./cli";

const REQUEST_STATES = "created, sent, opened, part-paid, paid, expired, cancelled";

const SKIP_REASONS: Record<"opted-out" | "not-a-contact" | "reminded-recently", string> = {
  "opted-out": "opted out of payment reminders",
  "not-a-contact": "no longer a contact of the account",
  "reminded-recently": "reminded less than 24 hours ago",
};

const money = (amount: number, currency: string) => formatMoney(amount, { currency });

type View = Awaited<ReturnType<typeof getPaymentRequest>> & object;

function printRequest(out: Out, view: View) {
  out(
    `${view.reference}  ${view.state}  ${money(view.remainingCents, view.currency)} of ${money(view.amountCents, view.currency)}`,
  );
  out(`  id:        ${view.id}`);
  out(`  account:   ${view.account.number} ${view.account.name}`);
  if (view.description) out(`  about:     ${view.description.replace(/\s+/g, " ").slice(0, 100)}`);
  if (view.dueDate) out(`  due:       ${view.dueDate}`);
  out(`  expires:   ${view.expiresAt}`);
  for (const invoice of view.invoices)
    out(`  invoice:   ${invoice.number} ${money(invoice.amountCents, view.currency)}`);
  for (const r of view.recipients) {
    out(
      `  to:        ${r.email} (sent ${r.sendCount}×${r.remindCount ? `, reminded ${r.remindCount}×` : ""}${r.opened ? ", opened" : ""})`,
    );
  }
}

/** A send's outcome: the request and each delivery; exit code 1 when any email did not leave. */
function reportSent(
  out: Out,
  result: Awaited<ReturnType<typeof sendPaymentRequest>>,
  heading: string,
  json: boolean | undefined,
  links: ReturnType<typeof linkCollector>,
): number {
  if (json) out(JSON.stringify({ ...result, ...links.json() }, null, 2));
  else {
    out(heading);
    printRequest(out, result.request);
    for (const d of result.deliveries)
      out(`  ${d.sent ? "emailed" : "NOT emailed"}: ${d.email}${d.error ? ` (${d.error})` : ""}`);
    links.print();
  }
  return result.deliveries.every((d) => d.sent) ? 0 : 1;
}

type CreateOptions = {
  host?: string;
  account?: string;
  invoice?: string[];
  amount?: string;
  description?: string;
  to?: string[];
  due?: string;
  expires?: string;
  partPayment?: boolean;
  min?: string;
  send: boolean;
  printLink?: boolean;
  json?: boolean;
};
type ListOptions = {
  host?: string;
  state?: string;
  account?: string;
  limit?: string;
  cursor?: string;
  json?: boolean;
};
type OneOptions = { host?: string; request?: string; printLink?: boolean; json?: boolean };

/** The verbs of `portal request`. */
export function addRequestVerbs(noun: Command, run: Run) {
  const { out } = run;

  const create = verb(noun, "create", "create a payment request and (unless --no-send) email it to each --to")
    .usage(
      "--host <host> --account <number|id> (--invoice <number|id>… | --amount <120.50> --description <text>) --to <contact>… [options]",
    )
    .option(HOST_OPTION[0], HOST_OPTION[1])
    .option("--account <number|id>", "the account asked to pay (required)")
    .option("--invoice <number|id>", "an invoice of the account to ask for (repeat for more)", repeated)
    .option("--amount <amount>", "a stated amount instead of invoices, e.g. 120.50")
    .option("--description <text>", "what a stated amount is for")
    .option("--to <contact>", "a contact of the account, by email or id (repeat for more; at least one)", repeated)
    .option("--due <YYYY-MM-DD>", "the due date shown to the payer")
    .option("--expires <when>", "days (14d, the default) or an ISO date-time with its offset")
    .option("--part-payment", "let the payer pay part of it")
    .option("--min <amount>", "the least part that may be paid, e.g. 50.00")
    .option("--no-send", "create it only; send it later with: request send")
    .option(PRINT_LINK_OPTION[0], PRINT_LINK_OPTION[1])
    .option(JSON_OPTION[0], JSON_OPTION[1]);
  runVerb(create, run, async (options: CreateOptions) => {
    // Everything typed is checked before the database is opened: bad input changes nothing.
    const hostname = hostOf(options.host);
    const input = {
      account: required(options.account, "account"),
      ...(options.invoice ? { invoices: options.invoice } : {}),
      ...(options.amount !== undefined ? { amountCents: cents(options.amount, "amount") } : {}),
      ...(options.description !== undefined ? { description: options.description } : {}),
      ...(options.due !== undefined ? { dueDate: options.due } : {}),
      ...expiry(options.expires),
      ...(options.partPayment ? { allowPartPayment: true } : {}),
      ...(options.min !== undefined ? { minPartPaymentCents: cents(options.min, "min") } : {}),
      recipients: options.to ?? [],
    };
    const { businessId } = await businessAt(hostname);
    const created = await createPaymentRequest(businessId, input);
    if (!options.send) {
      if (options.json) out(JSON.stringify({ request: created }, null, 2));
      else {
        out("Created (not sent: send it with npm run portal -- request send):");
        printRequest(out, created);
      }
      return 0;
    }
    const links = linkCollector(options.printLink, out);
    const sent = await sendPaymentRequest(businessId, created.id, { onLink: links.onLink });
    return reportSent(out, sent, "Created and sent:", options.json, links);
  });

  const list = verb(noun, "list", "the business's payment requests, newest first")
    .option(HOST_OPTION[0], HOST_OPTION[1])
    .option("--state <state>", `only those in one state: ${REQUEST_STATES}`)
    .option("--account <number|id>", "only those of one account")
    .option("--limit <n>", "how many on a page, 1-100 (default 25)")
    .option("--cursor <cursor>", "the next page, as the last page said")
    .option(JSON_OPTION[0], JSON_OPTION[1]);
  runVerb(list, run, async (options: ListOptions) => {
    const hostname = hostOf(options.host);
    const limit = pageLimit(options.limit);
    const { businessId } = await businessAt(hostname);
    const page = await listPaymentRequests(businessId, {
      state: options.state,
      account: options.account,
      limit,
      cursor: options.cursor,
    });
    if (options.json) out(JSON.stringify(page, null, 2));
    else {
      if (page.items.length === 0) out("No payment requests.");
      for (const item of page.items) printRequest(out, item);
      if (page.nextCursor) out(`\nMore: add --cursor ${page.nextCursor}`);
    }
    return 0;
  });

  for (const [name, summary, heading] of [
    ["send", "email a request never sent", "Sent:"],
    [
      "resend",
      "new links for every recipient; the old ones stop working",
      "Sent again (the earlier links no longer work):",
    ],
  ] as const) {
    const command = verb(noun, name, summary)
      .option(HOST_OPTION[0], HOST_OPTION[1])
      .option("--request <PR-…|id>", "the request (required)")
      .option(PRINT_LINK_OPTION[0], PRINT_LINK_OPTION[1])
      .option(JSON_OPTION[0], JSON_OPTION[1]);
    runVerb(command, run, async (options: OneOptions) => {
      const hostname = hostOf(options.host);
      const request = required(options.request, "request");
      const { businessId } = await businessAt(hostname);
      const links = linkCollector(options.printLink, out);
      const sent = await sendPaymentRequest(businessId, request, {
        resend: name === "resend",
        onLink: links.onLink,
      });
      return reportSent(out, sent, heading, options.json, links);
    });
  }

  const remind = verb(
    noun,
    "remind",
    "a payment reminder to each recipient who has not opted out and was not reminded in the last 24 hours",
  )
    .addHelpText("after", "\nA reminder adds a link: the earlier ones keep working. It says who was skipped and why.")
    .option(HOST_OPTION[0], HOST_OPTION[1])
    .option("--request <PR-…|id>", "the request (required)")
    .option(PRINT_LINK_OPTION[0], PRINT_LINK_OPTION[1])
    .option(JSON_OPTION[0], JSON_OPTION[1]);
  runVerb(remind, run, async (options: OneOptions) => {
    const hostname = hostOf(options.host);
    const request = required(options.request, "request");
    const { businessId } = await businessAt(hostname);
    const links = linkCollector(options.printLink, out);
    const result = await remindPaymentRequest(businessId, request, { onLink: links.onLink });
    if (options.json) out(JSON.stringify({ ...result, ...links.json() }, null, 2));
    else {
      out("Reminder:");
      printRequest(out, result.request);
      for (const s of result.sent) out(`  reminded: ${s.email}`);
      for (const s of result.skipped) out(`  skipped:  ${s.email} (${SKIP_REASONS[s.reason]})`);
      for (const f of result.failed) out(`  NOT emailed: ${f.email} (${f.error})`);
      links.print();
    }
    return result.failed.length ? 1 : 0;
  });

  const cancel = verb(noun, "cancel", "cancel a request; every link stops working")
    .option(HOST_OPTION[0], HOST_OPTION[1])
    .option("--request <PR-…|id>", "the request (required)")
    .option(JSON_OPTION[0], JSON_OPTION[1]);
  runVerb(cancel, run, async (options: OneOptions) => {
    const hostname = hostOf(options.host);
    const request = required(options.request, "request");
    const { businessId } = await businessAt(hostname);
    const cancelled = await cancelPaymentRequest(businessId, request);
    if (options.json) out(JSON.stringify({ request: cancelled }, null, 2));
    else {
      out("Cancelled (its links no longer work):");
      printRequest(out, cancelled);
    }
    return 0;
  });
}

type AdhocOptions = {
  host?: string;
  account?: string;
  to?: string[];
  contact?: string;
  expires?: string;
  printLink?: boolean;
  json?: boolean;
};

/** The verbs of `portal adhoc`. */
export function addAdhocVerbs(noun: Command, run: Run) {
  const { out } = run;

  const link = verb(noun, "link", "email a contact a link to pay any amount (where the business takes ad-hoc payments)")
    .addHelpText("after", "\nThe contact's earlier ad-hoc links for that account stop working.")
    .option(HOST_OPTION[0], HOST_OPTION[1])
    .option("--account <number|id>", "the account (required)")
    .option("--to <contact>", "the contact, by email or id (exactly one)", repeated)
    .option("--expires <days>", "how long the link works, e.g. 30d (the default)")
    .option(PRINT_LINK_OPTION[0], PRINT_LINK_OPTION[1])
    .option(JSON_OPTION[0], JSON_OPTION[1]);
  runVerb(link, run, async (options: AdhocOptions) => {
    const hostname = hostOf(options.host);
    const account = required(options.account, "account");
    const to = options.to ?? [];
    if (to.length !== 1) throw new UsageError("adhoc link takes exactly one --to.");
    const { expiresInDays, expiresAt } = expiry(options.expires);
    if (expiresAt) throw new UsageError("adhoc link takes --expires in days, e.g. 30d.");
    const { businessId } = await businessAt(hostname);
    const links = linkCollector(options.printLink, out);
    const result = await sendAdhocLink(
      businessId,
      { account, contact: to[0]!, ...(expiresInDays ? { expiresInDays } : {}) },
      { onLink: links.onLink },
    );
    if (options.json) out(JSON.stringify(result, null, 2));
    else {
      out(`Ad-hoc link for account ${account} to ${result.contact.email}, until ${result.expiresAt}:`);
      out(`  ${result.delivery.sent ? "emailed" : `NOT emailed: ${result.delivery.error}`}`);
      if (result.replaced > 0) out(`  ${result.replaced} earlier ad-hoc link(s) of this contact no longer work`);
      links.print();
    }
    return result.delivery.sent ? 0 : 1;
  });

  const revoke = verb(noun, "revoke", "every live ad-hoc link of a contact for an account stops working")
    .option(HOST_OPTION[0], HOST_OPTION[1])
    .option("--account <number|id>", "the account (required)")
    .option("--contact <contact>", "the contact, by email or id (required)")
    .option(JSON_OPTION[0], JSON_OPTION[1]);
  runVerb(revoke, run, async (options: AdhocOptions) => {
    const hostname = hostOf(options.host);
    const account = required(options.account, "account");
    const contact = required(options.contact, "contact");
    const { businessId } = await businessAt(hostname);
    const result = await revokeAdhocLinks(businessId, { account, contact });
    if (options.json) out(JSON.stringify(result, null, 2));
    else {
      out(
        result.revoked > 0
          ? `Revoked ${result.revoked} ad-hoc link(s) of ${result.contact.email} for account ${account}: they no longer work.`
          : `${result.contact.email} had no live ad-hoc link for account ${account}: nothing to revoke.`,
      );
    }
    return 0;
  });
}

/** The verbs of `portal communication`. */
export function addCommunicationVerbs(noun: Command, run: Run) {
  const { out } = run;
  const link = verb(noun, "link", "print a contact's signed link to their communication preferences")
    .addHelpText("after", "\nThe same link every email to them carries: for support staff to send on, and for demos.")
    .option(HOST_OPTION[0], HOST_OPTION[1])
    .option("--contact <contact>", "the contact, by email or id (required)");
  runVerb(link, run, async (options: { host?: string; contact?: string }) => {
    const hostname = hostOf(options.host);
    const wanted = required(options.contact, "contact");
    const { db, branding, businessId } = await businessAt(hostname);
    const contact = await findContact(db, businessId, wanted);
    if (!contact) throw new UsageError(`No contact ${JSON.stringify(wanted)} at ${hostname}.`);
    out(`Communication preferences of ${contact.email} (a key to them: send it to that person only):`);
    out(`  ${contactMailLinks(branding, contact.id, "account").preferences}`);
    return 0;
  });
}

/** The verbs of `portal apikey`. */
export function addApiKeyVerbs(noun: Command, run: Run) {
  const { out } = run;
  const create = verb(noun, "create", "make a back-office API key and print it once (only its hash is kept)")
    .option(HOST_OPTION[0], HOST_OPTION[1])
    .option("--name <name>", 'what the key is for, e.g. "Ledger sync" (required)')
    .option("--scope <scope>", `a scope (repeat for more): ${Object.keys(API_SCOPES).join(", ")}`, repeated);
  runVerb(create, run, async (options: { host?: string; name?: string; scope?: string[] }) => {
    const hostname = hostOf(options.host);
    const name = required(options.name, "name");
    const { branding, businessId } = await businessAt(hostname);
    const made = await createApiKey(businessId, name, options.scope ?? []);
    out(`API key "${made.name}" for ${branding.businessName} (${made.scopes.join(", ")}):`);
    out("");
    out(`  ${made.key}`);
    out("");
    out("It is shown this once: keep it in your secret store. Send it as Authorization: Bearer <key>.");
    return 0;
  });
}
