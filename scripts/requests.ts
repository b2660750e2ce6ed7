/**
 * The back-office CLI (issue 14; decision 032): payment requests, ad-hoc links and API keys,
 * over the same service functions as /api/back-office (no HTTP). It opens the database the
 * portal is configured with: DATABASE_URL, or the embedded one in DATA_DIR (default ./data),
 * which belongs to one process — stop `npm start` first, or use the API while it runs.
 *
 *   npm run request:create -- --host acme.localhost --account ACME-1000 --invoice ACME-1000-INV-023 --to olivia@coastal.example
 *   npm run request:list -- --host acme.localhost --state sent
 *   npm run request:remind -- --host acme.localhost --request PR-DEMO0001
 *
 * Links live only in the emails; --print-link also prints them (demos only).
 */
import { parseArgs, type ParseArgsConfig } from "node:util";
import { isScript, lineWriter, runBackOfficeCommand, UsageError, type CliIo, type Out } from "./cli-entry";

// Run as a script, before the services load: their log lines would otherwise mix with this command's output.
if (isScript(import.meta.url)) process.env.LOG_LEVEL ??= "warn";

const { formatMoney, parseMoneyToCents } = await import("../app/lib/format");
const { getDatabaseHandle } = await import("../app/services/platform/database.server");
const { findHostBranding, normalizeHostname } = await import("../app/services/host/host.server");
const requests = await import("../app/services/requests/payment-requests.server");
const { revokeAdhocLinks, sendAdhocLink } = await import("../app/services/requests/adhoc-links.server");
const { API_SCOPES, createApiKey } = await import("../app/services/backoffice/api-keys.server");
const { contactMailLinks } = await import("../app/services/communication/contact-mail.server");
const { findContact } = await import("../app/services/requests/lookups.server");

const USAGE = `Back-office commands (npm run <command> -- <options>):

  request:create  --host <host> --account <number|id>
                  (--invoice <number|id> [--invoice …] | --amount <120.50> --description "<what for>")
                  --to <contact email|id> [--to …] [--due <YYYY-MM-DD>] [--expires <14d|ISO date-time>]
                  [--part-payment [--min <50.00>]] [--no-send] [--print-link] [--json]
                  Creates a payment request and (unless --no-send) emails it to each --to.
  request:list    --host <host> [--state <created|sent|opened|part-paid|paid|expired|cancelled>]
                  [--account <number|id>] [--limit <1-100>] [--cursor <from the last page>] [--json]
  request:send    --host <host> --request <PR-…|id> [--print-link] [--json]   email a request never sent
  request:resend  --host <host> --request <PR-…|id> [--print-link] [--json]   new links; old ones stop working
  request:remind  --host <host> --request <PR-…|id> [--print-link] [--json]   a payment reminder to each recipient
                  who has not opted out and was not reminded in the last 24 hours (an extra link: the
                  earlier ones keep working); says who was skipped
  request:cancel  --host <host> --request <PR-…|id> [--json]                  cancel; every link stops working
  adhoc:link      --host <host> --account <number|id> --to <contact email|id> [--expires <30d>] [--print-link] [--json]
                  Emails a link to pay the business any amount (where it takes ad-hoc payments); the
                  contact's earlier ad-hoc links for that account stop working.
  adhoc:revoke    --host <host> --account <number|id> --contact <contact email|id> [--json]
                  Every live ad-hoc link of that contact for that account stops working.
  communication:link --host <host> --contact <contact email|id>
                  Prints the contact's signed link to their communication preferences (as every email to
                  them carries): for support staff to send on, and for demos.
  apikey:create   --host <host> --name <name> --scope <scope> [--scope …]
                  Prints a new back-office API key once. Scopes: ${Object.keys(API_SCOPES).join(", ")}.

The database is the portal's: DATABASE_URL, or the embedded one in DATA_DIR (default ./data; stop the
portal first). --print-link prints the emailed link too: for demos only, a link is a key to the request.`;

const OPTIONS = {
  host: { type: "string" },
  account: { type: "string" },
  invoice: { type: "string", multiple: true },
  amount: { type: "string" },
  description: { type: "string" },
  to: { type: "string", multiple: true },
  due: { type: "string" },
  expires: { type: "string" },
  "part-payment": { type: "boolean" },
  min: { type: "string" },
  "no-send": { type: "boolean" },
  "print-link": { type: "boolean" },
  json: { type: "boolean" },
  state: { type: "string" },
  limit: { type: "string" },
  cursor: { type: "string" },
  request: { type: "string" },
  contact: { type: "string" },
  name: { type: "string" },
  scope: { type: "string", multiple: true },
  help: { type: "boolean", short: "h" },
} satisfies ParseArgsConfig["options"];

type Values = ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>>["values"];

const ALLOWED: Record<string, (keyof typeof OPTIONS)[]> = {
  "request:create": [
    "host",
    "account",
    "invoice",
    "amount",
    "description",
    "to",
    "due",
    "expires",
    "part-payment",
    "min",
    "no-send",
    "print-link",
    "json",
  ],
  "request:list": ["host", "state", "account", "limit", "cursor", "json"],
  "request:send": ["host", "request", "print-link", "json"],
  "request:resend": ["host", "request", "print-link", "json"],
  "request:remind": ["host", "request", "print-link", "json"],
  "request:cancel": ["host", "request", "json"],
  "adhoc:link": ["host", "account", "to", "expires", "print-link", "json"],
  "adhoc:revoke": ["host", "account", "contact", "json"],
  "communication:link": ["host", "contact"],
  "apikey:create": ["host", "name", "scope"],
};

function required(values: Values, name: keyof Values): string {
  const value = values[name];
  if (typeof value !== "string" || value.trim() === "") throw new UsageError(`--${name} is required.`);
  return value.trim();
}

function cents(value: string, option: string): number {
  const parsed = parseMoneyToCents(value);
  if (!parsed.ok) throw new UsageError(`--${option} ${JSON.stringify(value)}: ${parsed.error}.`);
  return parsed.cents;
}

/** "14d" → days; an ISO date-time with an offset → that moment. */
function expiry(value: string | undefined): { expiresInDays?: number; expiresAt?: string } {
  if (value === undefined) return {};
  const days = /^(\d{1,3})d$/.exec(value.trim());
  if (days) return { expiresInDays: Number(days[1]) };
  if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(value.trim())) {
    return { expiresAt: value.trim() };
  }
  throw new UsageError(
    `--expires ${JSON.stringify(value)}: give days (14d) or a date-time such as 2026-12-31T23:59:00+11:00.`,
  );
}

const SKIP_REASONS: Record<"opted-out" | "not-a-contact" | "reminded-recently", string> = {
  "opted-out": "opted out of payment reminders",
  "not-a-contact": "no longer a contact of the account",
  "reminded-recently": "reminded less than 24 hours ago",
};

const money = (cents: number, currency: string) => formatMoney(cents, { currency });

type View = Awaited<ReturnType<typeof requests.getPaymentRequest>> & object;

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

async function main(argv: string[], io: CliIo): Promise<number> {
  const out = lineWriter(io.stdout);
  const [command, ...rest] = argv;
  if (!command || command === "--help" || command === "-h" || !ALLOWED[command]) {
    io.stderr.write(
      `${command && !command.startsWith("-") ? `Unknown command ${JSON.stringify(command)}.\n\n` : ""}${USAGE}\n`,
    );
    return command === "--help" || command === "-h" ? 0 : 2;
  }
  let values: Values;
  try {
    ({ values } = parseArgs({ args: rest, options: OPTIONS, allowPositionals: false, strict: true }));
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (values.help) {
    out(USAGE);
    return 0;
  }
  const extra = Object.keys(values).filter((name) => !ALLOWED[command]!.includes(name as keyof typeof OPTIONS));
  if (extra.length) throw new UsageError(`${command} does not take ${extra.map((n) => `--${n}`).join(", ")}.`);

  const hostname = normalizeHostname(required(values, "host"));
  if (!hostname) throw new UsageError("--host must be a host name such as acme.localhost.");
  const { db } = await getDatabaseHandle();
  const branding = await findHostBranding(db, hostname);
  if (!branding) throw new UsageError(`No business is served at ${hostname}.`);
  const businessId = branding.businessId;
  const json = values.json === true;
  const links: [string, string][] = [];
  const onLink = values["print-link"]
    ? (email: string, link: string) => {
        links.push([email, link]);
      }
    : undefined;
  const printLinks = () => {
    for (const [email, link] of links) out(`  link for ${email}: ${link}`);
  };

  switch (command) {
    case "request:create": {
      const input = {
        account: required(values, "account"),
        ...(values.invoice ? { invoices: values.invoice } : {}),
        ...(values.amount !== undefined ? { amountCents: cents(values.amount, "amount") } : {}),
        ...(values.description !== undefined ? { description: values.description } : {}),
        ...(values.due !== undefined ? { dueDate: values.due } : {}),
        ...expiry(values.expires),
        ...(values["part-payment"] ? { allowPartPayment: true } : {}),
        ...(values.min !== undefined ? { minPartPaymentCents: cents(values.min, "min") } : {}),
        recipients: values.to ?? [],
      };
      const created = await requests.createPaymentRequest(businessId, input);
      if (values["no-send"]) {
        if (json) out(JSON.stringify({ request: created }, null, 2));
        else {
          out("Created (not sent: send it with npm run request:send):");
          printRequest(out, created);
        }
        return 0;
      }
      const sent = await requests.sendPaymentRequest(businessId, created.id, { onLink });
      return report(sent, "Created and sent:");
    }
    case "request:send":
    case "request:resend": {
      const sent = await requests.sendPaymentRequest(businessId, required(values, "request"), {
        resend: command === "request:resend",
        onLink,
      });
      return report(sent, command === "request:send" ? "Sent:" : "Sent again (the earlier links no longer work):");
    }
    case "request:remind": {
      const result = await requests.remindPaymentRequest(businessId, required(values, "request"), { onLink });
      if (json) {
        out(JSON.stringify({ ...result, ...(links.length ? { links: Object.fromEntries(links) } : {}) }, null, 2));
      } else {
        out("Reminder:");
        printRequest(out, result.request);
        for (const s of result.sent) out(`  reminded: ${s.email}`);
        for (const s of result.skipped) out(`  skipped:  ${s.email} (${SKIP_REASONS[s.reason]})`);
        for (const f of result.failed) out(`  NOT emailed: ${f.email} (${f.error})`);
        printLinks();
      }
      return result.failed.length ? 1 : 0;
    }
    case "communication:link": {
      const contact = await findContact(db, businessId, required(values, "contact"));
      if (!contact) throw new UsageError(`No contact ${JSON.stringify(required(values, "contact"))} at ${hostname}.`);
      out(`Communication preferences of ${contact.email} (a key to them: send it to that person only):`);
      out(`  ${contactMailLinks(branding, contact.id, "account").preferences}`);
      return 0;
    }
    case "request:cancel": {
      const cancelled = await requests.cancelPaymentRequest(businessId, required(values, "request"));
      if (json) out(JSON.stringify({ request: cancelled }, null, 2));
      else {
        out("Cancelled (its links no longer work):");
        printRequest(out, cancelled);
      }
      return 0;
    }
    case "request:list": {
      const limit = values.limit;
      if (limit !== undefined && !/^\d{1,3}$/.test(limit))
        throw new UsageError("--limit must be a whole number from 1 to 100.");
      const page = await requests.listPaymentRequests(businessId, {
        state: values.state,
        account: values.account,
        limit: limit === undefined ? undefined : Number(limit),
        cursor: values.cursor,
      });
      if (json) out(JSON.stringify(page, null, 2));
      else {
        if (page.items.length === 0) out("No payment requests.");
        for (const item of page.items) printRequest(out, item);
        if (page.nextCursor) out(`\nMore: add --cursor ${page.nextCursor}`);
      }
      return 0;
    }
    case "adhoc:link": {
      const to = values.to ?? [];
      if (to.length !== 1) throw new UsageError("adhoc:link takes exactly one --to.");
      const { expiresInDays, expiresAt } = expiry(values.expires);
      if (expiresAt) throw new UsageError("adhoc:link takes --expires in days, e.g. 30d.");
      const result = await sendAdhocLink(
        businessId,
        { account: required(values, "account"), contact: to[0], ...(expiresInDays ? { expiresInDays } : {}) },
        { onLink },
      );
      if (json) out(JSON.stringify(result, null, 2));
      else {
        out(
          `Ad-hoc link for account ${required(values, "account")} to ${result.contact.email}, until ${result.expiresAt}:`,
        );
        out(`  ${result.delivery.sent ? "emailed" : `NOT emailed: ${result.delivery.error}`}`);
        if (result.replaced > 0) out(`  ${result.replaced} earlier ad-hoc link(s) of this contact no longer work`);
        printLinks();
      }
      return result.delivery.sent ? 0 : 1;
    }
    case "adhoc:revoke": {
      const result = await revokeAdhocLinks(businessId, {
        account: required(values, "account"),
        contact: required(values, "contact"),
      });
      if (json) out(JSON.stringify(result, null, 2));
      else {
        out(
          result.revoked > 0
            ? `Revoked ${result.revoked} ad-hoc link(s) of ${result.contact.email} for account ${required(values, "account")}: they no longer work.`
            : `${result.contact.email} had no live ad-hoc link for account ${required(values, "account")}: nothing to revoke.`,
        );
      }
      return 0;
    }
    case "apikey:create": {
      const made = await createApiKey(businessId, required(values, "name"), values.scope ?? []);
      out(`API key "${made.name}" for ${branding.businessName} (${made.scopes.join(", ")}):`);
      out("");
      out(`  ${made.key}`);
      out("");
      out("It is shown this once: keep it in your secret store. Send it as Authorization: Bearer <key>.");
      return 0;
    }
  }
  return 2;

  function report(result: Awaited<ReturnType<typeof requests.sendPaymentRequest>>, heading: string) {
    if (json) {
      out(JSON.stringify({ ...result, ...(links.length ? { links: Object.fromEntries(links) } : {}) }, null, 2));
    } else {
      out(heading);
      printRequest(out, result.request);
      for (const d of result.deliveries)
        out(`  ${d.sent ? "emailed" : "NOT emailed"}: ${d.email}${d.error ? ` (${d.error})` : ""}`);
      printLinks();
    }
    return result.deliveries.every((d) => d.sent) ? 0 : 1;
  }
}

/**
 * Runs one back-office command (`argv` as after the script's name: ["request:list", "--host", "acme.localhost"]),
 * writing to `io`, and returns its exit code: 0 done, 1 refused or failed, 2 a usage error. It uses the
 * process's database (DATABASE_URL, or the embedded one in DATA_DIR): opened here if nothing in the
 * process has opened it yet, and then closed here; a database the caller had open stays open.
 */
export function runCli(argv: string[], io: CliIo = process): Promise<number> {
  return runBackOfficeCommand(main, argv, io);
}

if (isScript(import.meta.url)) process.exitCode = await runCli(process.argv.slice(2));
