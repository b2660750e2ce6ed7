/**
 * `portal schedule …` (issue 15; decision 034): payment schedules, over the same service functions
 * as /api/back-office/payment-schedules (no HTTP).
 *
 *   npm run portal -- schedule create --host acme.localhost --account ACME-1000 --to olivia@coastal.example \
 *     --amount 1,200.00 --description "Fit-out" --count 6 --frequency fortnightly --first 2026-12-01
 *   npm run portal -- schedule list --host acme.localhost --state active
 *
 * Links live only in the emails; --print-link also prints them (demos only).
 */
import type { Command } from "commander";
import { formatMoney } from "../../app/lib/format";
import * as schedules from "../../app/services/schedules/commands.server";
import * as scheduleQueries from "../../app/services/schedules/queries.server";
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
  runVerb,
  UsageError,
  verb,
  type Out,
  type Run,
} from "./cli";

const SCHEDULE_STATES = "proposed, active, arrears, completed, withdrawn, cancelled, expired";

type CreateOptions = {
  host?: string;
  account?: string;
  to?: string;
  invoice?: string[];
  amount?: string;
  description?: string;
  count?: string;
  frequency?: string;
  first?: string;
  instalment?: string[];
  expires?: string;
  send: boolean;
  printLink?: boolean;
  json?: boolean;
};

/** --count/--frequency/--first, or --instalment DAY=AMOUNT …, as the service takes them. */
function instalmentsOf(options: CreateOptions): unknown {
  const regular = options.count !== undefined || options.frequency !== undefined || options.first !== undefined;
  const explicit = options.instalment ?? [];
  if (regular && explicit.length) throw new UsageError("Give --count/--frequency/--first or --instalment, not both.");
  if (regular) {
    const count = options.count?.trim() ?? "";
    if (!/^\d{1,3}$/.test(count)) throw new UsageError("--count must be a whole number of instalments, e.g. 6.");
    return {
      count: Number(count),
      frequency: required(options.frequency, "frequency"),
      firstDate: required(options.first, "first"),
    };
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

type OneOptions = { host?: string; schedule?: string; printLink?: boolean; json?: boolean };

/** The verbs of `portal schedule`. */
export function addScheduleVerbs(noun: Command, run: Run): void {
  const { out } = run;

  const report = (
    result: Awaited<ReturnType<typeof schedules.sendSchedule>>,
    heading: string,
    json: boolean | undefined,
    links: ReturnType<typeof linkCollector>,
  ) => {
    if (json) out(JSON.stringify({ ...result, ...links.json() }, null, 2));
    else {
      out(heading);
      printSchedule(out, result.schedule);
      const d = result.delivery;
      out(`  ${d.sent ? "emailed" : "NOT emailed"}: ${d.email}${d.error ? ` (${d.error})` : ""}`);
      links.print();
    }
    return result.delivery.sent ? 0 : 1;
  };
  const show = (view: View, heading: string, json: boolean | undefined) => {
    if (json) out(JSON.stringify({ schedule: view }, null, 2));
    else {
      out(heading);
      printSchedule(out, view, true);
    }
    return 0;
  };

  const create = verb(noun, "create", "propose a schedule and (unless --no-send) email it to the contact")
    .usage(
      "--host <host> --account <number|id> --to <contact> (--invoice <number|id>… | --amount <1,200.00> --description <text>) (--count <n> --frequency <f> --first <YYYY-MM-DD> | --instalment <YYYY-MM-DD=200.00>…) [options]",
    )
    .option(HOST_OPTION[0], HOST_OPTION[1])
    .option("--account <number|id>", "the account (required)")
    .option("--to <contact>", "the contact who accepts it, by email or id (required)")
    .option("--invoice <number|id>", "an invoice of the account it pays (repeat for more)", repeated)
    .option("--amount <amount>", "a stated amount instead of invoices, e.g. 1,200.00")
    .option("--description <text>", "what a stated amount is for")
    .option("--count <n>", "regular instalments: how many")
    .option("--frequency <frequency>", "regular instalments: weekly, fortnightly, monthly or quarterly")
    .option("--first <YYYY-MM-DD>", "regular instalments: the first one's date")
    .option("--instalment <YYYY-MM-DD=amount>", "one instalment of your own (repeat for each)", repeated)
    .option("--expires <when>", "accept by: days (14d) or an ISO date-time with its offset")
    .option("--no-send", "propose it only; send it later with: schedule send")
    .option(PRINT_LINK_OPTION[0], PRINT_LINK_OPTION[1])
    .option(JSON_OPTION[0], JSON_OPTION[1]);
  runVerb(create, run, async (options: CreateOptions) => {
    // Everything typed is checked before the database is opened: bad input changes nothing.
    const hostname = hostOf(options.host);
    const input = {
      account: required(options.account, "account"),
      contact: required(options.to, "to"),
      ...(options.invoice ? { invoices: options.invoice } : {}),
      ...(options.amount !== undefined ? { amountCents: cents(options.amount, "amount") } : {}),
      ...(options.description !== undefined ? { description: options.description } : {}),
      instalments: instalmentsOf(options),
      ...expiry(options.expires),
    };
    const { businessId } = await businessAt(hostname);
    const proposed = await schedules.proposeSchedule(businessId, input);
    if (!options.send) {
      return show(proposed, "Proposed (not sent: send it with npm run portal -- schedule send):", options.json);
    }
    const links = linkCollector(options.printLink, out);
    const sent = await schedules.sendSchedule(businessId, proposed.id, { onLink: links.onLink });
    return report(sent, "Proposed and sent:", options.json, links);
  });

  const list = verb(noun, "list", "the business's payment schedules, newest first")
    .option(HOST_OPTION[0], HOST_OPTION[1])
    .option("--state <state>", `only those in one state: ${SCHEDULE_STATES}`)
    .option("--account <number|id>", "only those of one account")
    .option("--limit <n>", "how many on a page, 1-100")
    .option("--cursor <cursor>", "the next page, as the last page said")
    .option(JSON_OPTION[0], JSON_OPTION[1]);
  runVerb(
    list,
    run,
    async (options: {
      host?: string;
      state?: string;
      account?: string;
      limit?: string;
      cursor?: string;
      json?: boolean;
    }) => {
      const hostname = hostOf(options.host);
      const limit = pageLimit(options.limit);
      const { businessId } = await businessAt(hostname);
      const page = await scheduleQueries.listSchedules(businessId, {
        state: options.state,
        account: options.account,
        limit,
        cursor: options.cursor,
      });
      if (options.json) out(JSON.stringify(page, null, 2));
      else {
        if (page.items.length === 0) out("No payment schedules.");
        for (const item of page.items) printSchedule(out, item);
        if (page.nextCursor) out(`\nMore: add --cursor ${page.nextCursor}`);
      }
      return 0;
    },
  );

  const one = (name: string, summary: string, withLinks: boolean) => {
    const command = verb(noun, name, summary)
      .option(HOST_OPTION[0], HOST_OPTION[1])
      .option("--schedule <PS-…|id>", "the schedule (required)");
    if (withLinks) command.option(PRINT_LINK_OPTION[0], PRINT_LINK_OPTION[1]);
    return command.option(JSON_OPTION[0], JSON_OPTION[1]);
  };
  /** Checks what was typed, then opens the database and finds the business. */
  const target = async (options: OneOptions) => {
    const hostname = hostOf(options.host);
    const schedule = required(options.schedule, "schedule");
    return { hostname, schedule, ...(await businessAt(hostname)) };
  };

  runVerb(one("show", "one schedule, every instalment", false), run, async (options: OneOptions) => {
    const { hostname, schedule, businessId } = await target(options);
    const view = await scheduleQueries.getSchedule(businessId, schedule);
    if (!view) throw new UsageError(`No payment schedule ${JSON.stringify(schedule)} at ${hostname}.`);
    return show(view, "Payment schedule:", options.json);
  });

  for (const [name, summary, heading] of [
    ["send", "email a proposal never sent", "Sent:"],
    ["resend", "a new link; the old one stops working", "Sent again (the earlier link no longer works):"],
  ] as const) {
    runVerb(one(name, summary, true), run, async (options: OneOptions) => {
      const { schedule, businessId } = await target(options);
      const links = linkCollector(options.printLink, out);
      const sent = await schedules.sendSchedule(businessId, schedule, {
        resend: name === "resend",
        onLink: links.onLink,
      });
      return report(sent, heading, options.json, links);
    });
  }

  runVerb(one("withdraw", "take a proposal back", false), run, async (options: OneOptions) => {
    const { schedule, businessId } = await target(options);
    const view = await schedules.withdrawSchedule(businessId, schedule);
    return show(view, "Withdrawn (its link no longer works):", options.json);
  });

  runVerb(one("cancel", "end an accepted schedule", false), run, async (options: OneOptions) => {
    const { schedule, businessId } = await target(options);
    const view = await schedules.cancelSchedule(businessId, schedule);
    return show(view, "Cancelled (nothing more will be charged; its links no longer work):", options.json);
  });
}
