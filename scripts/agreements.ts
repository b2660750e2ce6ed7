/**
 * The agreements CLI (issue 15; decision 036): documents, versions and offers over the same
 * service functions as /api/back-office/agreements and /agreement-offers (no HTTP). It opens the
 * database the portal is configured with: DATABASE_URL, or the embedded one in DATA_DIR (default
 * ./data), which belongs to one process — stop `npm start` first, or use the API while it runs.
 *
 *   npm run agreement:create -- --host acme.localhost --kind terms-of-trade --title "Terms of trade" --file terms.md
 *   npm run agreement:offer -- --host acme.localhost --document <id> --account ACME-1000 --to olivia@coastal.example
 *
 * Links live only in the emails; --print-link also prints them (demos only).
 */
import fs from "node:fs";
import { parseArgs, type ParseArgsConfig } from "node:util";
import { isScript, lineWriter, runBackOfficeCommand, UsageError, type CliIo, type Out } from "./cli-entry";

// Run as a script, before the services load: their log lines would otherwise mix with this command's output.
if (isScript(import.meta.url)) process.env.LOG_LEVEL ??= "warn";

const { getDatabaseHandle } = await import("../app/services/platform/database.server");
const { findHostBranding, normalizeHostname } = await import("../app/services/host/host.server");
const agreements = await import("../app/services/agreements/commands.server");
const agreementQueries = await import("../app/services/agreements/queries.server");
const { AGREEMENT_KINDS, AGREEMENT_OFFER_STATES } = await import("../app/lib/agreements");

const USAGE = `Agreement commands (npm run <command> -- <options>):

  agreement:create    --host <host> --kind <${AGREEMENT_KINDS.join("|")}> --title "<title>" --file <text.md> [--json]
                      A new agreement document and its version 1 (the file's text, the portal's simple Markdown).
  agreement:version   --host <host> --document <id> --file <text.md> [--json]
                      Publishes the document's next version. Offers not yet decided show it from now on.
  agreement:list      --host <host> [--json]                          the business's documents
  agreement:offer     --host <host> --document <id> --account <number|id> --to <contact email|id>
                      [--expires <30d>] [--print-link] [--json]
                      Offers the document to a contact who may act for the account, and emails them the link.
  agreement:offers    --host <host> (--account <number|id> | --contact <email|id>)
                      [--state <${AGREEMENT_OFFER_STATES.join("|")}>] [--json]
  agreement:resend    --host <host> --offer <AG-…|id> [--print-link] [--json]   a new link; the old one stops working
  agreement:withdraw  --host <host> --offer <AG-…|id> [--json]                  it can no longer be decided

The database is the portal's: DATABASE_URL, or the embedded one in DATA_DIR (default ./data; stop the
portal first). --print-link prints the emailed link too: for demos only, a link is a key to the offer.`;

const OPTIONS = {
  host: { type: "string" },
  kind: { type: "string" },
  title: { type: "string" },
  file: { type: "string" },
  document: { type: "string" },
  account: { type: "string" },
  contact: { type: "string" },
  to: { type: "string" },
  offer: { type: "string" },
  state: { type: "string" },
  expires: { type: "string" },
  "print-link": { type: "boolean" },
  json: { type: "boolean" },
  help: { type: "boolean", short: "h" },
} satisfies ParseArgsConfig["options"];

type Values = ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>>["values"];

const ALLOWED: Record<string, (keyof typeof OPTIONS)[]> = {
  "agreement:create": ["host", "kind", "title", "file", "json"],
  "agreement:version": ["host", "document", "file", "json"],
  "agreement:list": ["host", "json"],
  "agreement:offer": ["host", "document", "account", "to", "expires", "print-link", "json"],
  "agreement:offers": ["host", "account", "contact", "state", "json"],
  "agreement:resend": ["host", "offer", "print-link", "json"],
  "agreement:withdraw": ["host", "offer", "json"],
};

function required(values: Values, name: keyof Values): string {
  const value = values[name];
  if (typeof value !== "string" || value.trim() === "") throw new UsageError(`--${name} is required.`);
  return value.trim();
}

/** The text of --file, read as UTF-8 exactly (the service makes line endings "\n"). */
function textOf(values: Values): string {
  const file = required(values, "file");
  try {
    return fs.readFileSync(file, "utf8");
  } catch (error) {
    throw new UsageError(`--file ${JSON.stringify(file)}: ${(error as Error).message}`);
  }
}

function days(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const match = /^(\d{1,2})d$/.exec(value.trim());
  if (!match) throw new UsageError(`--expires ${JSON.stringify(value)}: give days, e.g. 30d.`);
  return Number(match[1]);
}

type DocumentView = Awaited<ReturnType<typeof agreementQueries.getAgreementDocument>> & object;
type OfferView = Awaited<ReturnType<typeof agreementQueries.getAgreementOffer>> & object;

function printDocument(out: Out, document: Pick<DocumentView, "id" | "kind" | "title" | "latestVersion">) {
  const latest = document.latestVersion;
  out(`${document.title}  (${document.kind})`);
  out(`  id:        ${document.id}`);
  out(`  version:   ${latest.version}, published ${latest.publishedAt}, ${latest.bytes} bytes`);
  out(`  sha-256:   ${latest.bodySha256}`);
}

function printOffer(out: Out, offer: OfferView) {
  out(`${offer.reference}  ${offer.state}  ${offer.document.title}`);
  out(`  id:        ${offer.id}`);
  out(`  account:   ${offer.account.number} ${offer.account.name}`);
  out(`  to:        ${offer.contact.email} (sent ${offer.sendCount}×${offer.openedAt ? ", opened" : ""})`);
  out(`  expires:   ${offer.expiresAt}`);
  if (offer.decision) {
    const d = offer.decision;
    out(`  decision:  ${d.decision} version ${d.version.version} by "${d.typedName}" <${d.contact.email}>`);
    out(`             at ${d.decidedAt} from ${d.clientAddress}; text sha-256 ${d.bodySha256}`);
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
  const onLink = values["print-link"] ? (email: string, link: string) => links.push([email, link]) : undefined;

  switch (command) {
    case "agreement:create":
    case "agreement:version": {
      const document =
        command === "agreement:create"
          ? await agreements.createAgreementDocument(businessId, {
              kind: required(values, "kind"),
              title: required(values, "title"),
              body: textOf(values),
            })
          : await agreements.publishAgreementVersion(businessId, required(values, "document"), {
              body: textOf(values),
            });
      if (json) out(JSON.stringify({ document }, null, 2));
      else {
        out(command === "agreement:create" ? "Created:" : "Published:");
        printDocument(out, document);
      }
      return 0;
    }
    case "agreement:list": {
      const page = await agreementQueries.listAgreementDocuments(businessId, { limit: 100 });
      if (json) out(JSON.stringify(page, null, 2));
      else if (page.items.length === 0) out("No agreement documents.");
      else for (const document of page.items) printDocument(out, document);
      return 0;
    }
    case "agreement:offer":
    case "agreement:resend": {
      const expiresInDays = days(values.expires);
      const result =
        command === "agreement:offer"
          ? await agreements.createAgreementOffer(
              businessId,
              {
                document: required(values, "document"),
                account: required(values, "account"),
                contact: required(values, "to"),
                ...(expiresInDays ? { expiresInDays } : {}),
              },
              { onLink },
            )
          : await agreements.resendAgreementOffer(businessId, required(values, "offer"), { onLink });
      if (json) {
        out(JSON.stringify({ ...result, ...(links.length ? { links: Object.fromEntries(links) } : {}) }, null, 2));
      } else {
        out(command === "agreement:offer" ? "Offered:" : "Sent again (the earlier link no longer works):");
        printOffer(out, result.offer);
        out(`  ${result.delivery.sent ? "emailed" : `NOT emailed: ${result.delivery.error}`}`);
        for (const [email, link] of links) out(`  link for ${email}: ${link}`);
      }
      return result.delivery.sent ? 0 : 1;
    }
    case "agreement:offers": {
      const page = await agreementQueries.listAgreementOffers(businessId, {
        account: values.account,
        contact: values.contact,
        state: values.state,
        limit: 100,
      });
      if (json) out(JSON.stringify(page, null, 2));
      else if (page.items.length === 0) out("No agreement offers.");
      else for (const offer of page.items) printOffer(out, offer);
      return 0;
    }
    case "agreement:withdraw": {
      const offer = await agreements.withdrawAgreementOffer(businessId, required(values, "offer"));
      if (json) out(JSON.stringify({ offer }, null, 2));
      else {
        out("Withdrawn (its links no longer work):");
        printOffer(out, offer);
      }
      return 0;
    }
  }
  return 2;
}

/**
 * Runs one agreement command (`argv` as after the script's name: ["agreement:list", "--host", "acme.localhost"]),
 * writing to `io`, and returns its exit code: 0 done, 1 refused or failed, 2 a usage error. It uses the
 * process's database (DATABASE_URL, or the embedded one in DATA_DIR): opened here if nothing in the
 * process has opened it yet, and then closed here; a database the caller had open stays open.
 */
export function runCli(argv: string[], io: CliIo = process): Promise<number> {
  return runBackOfficeCommand(main, argv, io);
}

if (isScript(import.meta.url)) process.exitCode = await runCli(process.argv.slice(2));
