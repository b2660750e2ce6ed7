/**
 * The back-office CLI for payment schedules (issue 15; decision 034), over the same service
 * functions as /api/back-office/payment-schedules (no HTTP). Like scripts/requests.ts it opens
 * the database the portal is configured with: DATABASE_URL, or the embedded one in DATA_DIR
 * (default ./data), which belongs to one process — stop `npm start` first, or use the API.
 *
 *   npm run schedule:create -- --host acme.localhost --account ACME-1000 --to olivia@coastal.example \
 *     --amount 1,200.00 --description "Fit-out" --count 6 --frequency fortnightly --first 2026-12-01
 *   npm run schedule:list -- --host acme.localhost --state active
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
const schedules = await import("../app/services/schedules/commands.server");
const scheduleQueries = await import("../app/services/schedules/queries.server");

const USAGE = `Payment schedule commands (npm run <command> -- <options>):

  schedule:create   --host <host> --account <number|id> --to <contact email|id>
                    (--invoice <number|id> [--invoice …] | --amount <1,200.00> --description "<what for>")
                    (--count <n> --frequency <weekly|fortnightly|monthly|quarterly> --first <YYYY-MM-DD>
                     | --instalment <YYYY-MM-DD=200.00> [--instalment …])
                    [--expires <14d|ISO date-time>] [--no-send] [--print-link] [--json]
                    Proposes a schedule and (unless --no-send) emails it to the contact.
  schedule:list     --host <host> [--state <proposed|active|arrears|completed|withdrawn|cancelled|expired>]
                    [--account <number|id>] [--limit <1-100>] [--cursor <from the last page>] [--json]
  schedule:show     --host <host> --schedule <PS-…|id> [--json]          one schedule, every instalment
  schedule:send     --host <host> --schedule <PS-…|id> [--print-link] [--json]   email a proposal never sent
  schedule:resend   --host <host> --schedule <PS-…|id> [--print-link] [--json]   a new link; the old one stops working
  schedule:withdraw --host <host> --schedule <PS-…|id> [--json]          take a proposal back
  schedule:cancel   --host <host> --schedule <PS-…|id> [--json]          end an accepted schedule

The database is the portal's: DATABASE_URL, or the embedded one in DATA_DIR (default ./data; stop the
portal first). --print-link prints the emailed link too: for demos only, a link opens the proposal.`;

const OPTIONS = {
  host: { type: "string" },
  account: { type: "string" },
  to: { type: "string" },
  invoice: { type: "string", multiple: true },
  amount: { type: "string" },
  description: { type: "string" },
  count: { type: "string" },
  frequency: { type: "string" },
  first: { type: "string" },
  instalment: { type: "string", multiple: true },
  expires: { type: "string" },
  "no-send": { type: "boolean" },
  "print-link": { type: "boolean" },
  json: { type: "boolean" },
  state: { type: "string" },
  limit: { type: "string" },
  cursor: { type: "string" },
  schedule: { type: "string" },
  help: { type: "boolean", short: "h" },
} satisfies ParseArgsConfig["options"];

type Values = ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>>["values"];

const ALLOWED: Record<string, (keyof typeof OPTIONS)[]> = {
  "schedule:create": [
    "host",
    "account",
    "to",
    "invoice",
    "amount",
    "description",
    "count",
    "frequency",
    "first",
    "instalment",
    "expires",
    "no-send",
    "print-link",
    "json",
  ],
  "schedule:list": ["host", "state", "account", "limit", "cursor", "json"],
  "schedule:show": ["host", "schedule", "json"],
  "schedule:send": ["host", "schedule", "print-link", "json"],
  "schedule:resend": ["host", "schedule", "print-link", "json"],
  "schedule:withdraw": ["host", "schedule", "json"],
  "schedule:cancel": ["host", "schedule", "json"],
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

/** --count/--frequency/--first, or --instalment DAY=AMOUNT …, as the service takes them. */
function instalmentsOf(values: Values): unknown {
  const regular = values.count !== undefined || values.frequency !== undefined || values.first !== undefined;
  const explicit = values.instalment ?? [];
  if (regular && explicit.length) throw new UsageError("Give --count/--frequency/--first or --instalment, not both.");
  if (regular) {
    const count = values.count?.trim() ?? "";
    if (!/^\d{1,3}$/.test(count)) throw new UsageError("--count must be a whole number of instalments, e.g. 6.");
    return { count: Number(count), frequency: required(values, "frequency"), firstDate: required(values, "first") };
  }
  if (!explicit.length) {
    throw new UsageError("Give the instalments: --count, --frequency and --first, or --instalment YYYY-MM-DD=AMOUNT.");
  }
  return explicit.map((entry) => {
    const [dueDate, amount, ...rest] = entry.split("=");
    if (!dueDate || amount === undefined || rest.length) {
      throw new UsageError(
        `--instalment ${JSON.stringify(entry)}: write it as YYYY-MM-DD=AMOUNT, e.g. 2026-12-01=200.00.`,
      );
    }
    return { dueDate: dueDate.trim(), amountCents: cents(amount.trim(), "instalment") };
  });
}

const money = (value: number, currency: string) => formatMoney(value, { currency });

type View = Awaited<ReturnType<typeof schedules.proposeSchedule>>;

function printSchedule(out: Out, view: View, full = false) {
  out(
    `${view.reference}  ${view.state}  ${money(view.remainingCents, view.currency)} left of ${money(view.totalCents, view.currency)}`,
  );
  out(`  id:          ${view.id}`);
  out(`  account:     ${view.account.number} ${view.account.name}`);
  out(`  contact:     ${view.contact.email}`);
  if (view.description) out(`  about:       ${view.description.replace(/\s+/g, " ").slice(0, 100)}`);
  if (view.state === "proposed") out(`  accept by:   ${view.expiresAt}`);
  if (view.wayToPay) {
    out(
      `  way to pay:  ${view.wayToPay.kind === "card" ? `card ${view.wayToPay.brand} ${view.wayToPay.last4}` : `PayTo ${view.wayToPay.payId ?? `${view.wayToPay.bsb} …${view.wayToPay.accountLast3}`}`}`,
    );
  }
  for (const invoice of view.invoices)
    out(`  invoice:     ${invoice.number} ${money(invoice.amountCents, view.currency)}`);
  const shown = full ? view.instalments : view.instalments.slice(0, 3);
  for (const i of shown) {
    out(
      `  ${String(i.seq).padStart(2)}. ${i.dueDate}  ${money(i.amountCents, view.currency).padStart(12)}  ${i.view}${i.attempts ? ` (${i.attempts} tr${i.attempts === 1 ? "y" : "ies"})` : ""}`,
    );
  }
  if (shown.length < view.instalments.length) out(`      … ${view.instalments.length - shown.length} more`);
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
  const onLink = values["print-link"] ? (email: string, link: string) => links.push([email, link]) : undefined;

  const report = (result: Awaited<ReturnType<typeof schedules.sendSchedule>>, heading: string) => {
    if (json) {
      out(JSON.stringify({ ...result, ...(links.length ? { links: Object.fromEntries(links) } : {}) }, null, 2));
    } else {
      out(heading);
      printSchedule(out, result.schedule);
      const d = result.delivery;
      out(`  ${d.sent ? "emailed" : "NOT emailed"}: ${d.email}${d.error ? ` (${d.error})` : ""}`);
      for (const [email, link] of links) out(`  link for ${email}: ${link}`);
    }
    return result.delivery.sent ? 0 : 1;
  };
  const show = (view: View, heading: string) => {
    if (json) out(JSON.stringify({ schedule: view }, null, 2));
    else {
      out(heading);
      printSchedule(out, view, true);
    }
    return 0;
  };

  switch (command) {
    case "schedule:create": {
      const input = {
        account: required(values, "account"),
        contact: required(values, "to"),
        ...(values.invoice ? { invoices: values.invoice } : {}),
        ...(values.amount !== undefined ? { amountCents: cents(values.amount, "amount") } : {}),
        ...(values.description !== undefined ? { description: values.description } : {}),
        instalments: instalmentsOf(values),
        ...expiry(values.expires),
      };
      const proposed = await schedules.proposeSchedule(businessId, input);
      if (values["no-send"]) return show(proposed, "Proposed (not sent: send it with npm run schedule:send):");
      return report(await schedules.sendSchedule(businessId, proposed.id, { onLink }), "Proposed and sent:");
    }
    case "schedule:send":
    case "schedule:resend":
      return report(
        await schedules.sendSchedule(businessId, required(values, "schedule"), {
          resend: command === "schedule:resend",
          onLink,
        }),
        command === "schedule:send" ? "Sent:" : "Sent again (the earlier link no longer works):",
      );
    case "schedule:show": {
      const view = await scheduleQueries.getSchedule(businessId, required(values, "schedule"));
      if (!view) throw new UsageError(`No payment schedule ${JSON.stringify(values.schedule)} at ${hostname}.`);
      return show(view, "Payment schedule:");
    }
    case "schedule:withdraw":
      return show(
        await schedules.withdrawSchedule(businessId, required(values, "schedule")),
        "Withdrawn (its link no longer works):",
      );
    case "schedule:cancel":
      return show(
        await schedules.cancelSchedule(businessId, required(values, "schedule")),
        "Cancelled (nothing more will be charged; its links no longer work):",
      );
    case "schedule:list": {
      const limit = values.limit;
      if (limit !== undefined && !/^\d{1,3}$/.test(limit)) {
        throw new UsageError("--limit must be a whole number from 1 to 100.");
      }
      const page = await scheduleQueries.listSchedules(businessId, {
        state: values.state,
        account: values.account,
        limit: limit === undefined ? undefined : Number(limit),
        cursor: values.cursor,
      });
      if (json) out(JSON.stringify(page, null, 2));
      else {
        if (page.items.length === 0) out("No payment schedules.");
        for (const item of page.items) printSchedule(out, item);
        if (page.nextCursor) out(`\nMore: add --cursor ${page.nextCursor}`);
      }
      return 0;
    }
  }
  return 2;
}

/**
 * Runs one payment-schedule command (`argv` as after the script's name: ["schedule:list", "--host", "acme.localhost"]),
 * writing to `io`, and returns its exit code: 0 done, 1 refused or failed, 2 a usage error. It uses the
 * process's database (DATABASE_URL, or the embedded one in DATA_DIR): opened here if nothing in the
 * process has opened it yet, and then closed here; a database the caller had open stays open.
 */
export function runCli(argv: string[], io: CliIo = process): Promise<number> {
  return runBackOfficeCommand(main, argv, io);
}

if (isScript(import.meta.url)) process.exitCode = await runCli(process.argv.slice(2));
