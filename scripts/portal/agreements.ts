/**
 * `portal agreement …` (issue 15; decision 036): agreement documents, versions and offers over the
 * same service functions as /api/back-office/agreements and /agreement-offers (no HTTP).
 *
 *   npm run portal -- agreement create --host acme.localhost --kind terms-of-trade --title "Terms of trade" --file terms.md
 *   npm run portal -- agreement offer --host acme.localhost --document <id> --account ACME-1000 --to olivia@coastal.example
 *
 * Links live only in the emails; --print-link also prints them (demos only).
 */
import fs from "node:fs";
import type { Command } from "commander";
import { AGREEMENT_KINDS, AGREEMENT_OFFER_STATES } from "../../app/lib/agreements";
import * as agreements from "../../app/services/agreements/commands.server";
import * as agreementQueries from "../../app/services/agreements/queries.server";
import {
  businessAt,
  HOST_OPTION,
  hostOf,
  JSON_OPTION,
  linkCollector,
  PRINT_LINK_OPTION,
  required,
  runVerb,
  UsageError,
  verb,
  type Out,
  type Run,
} from "./cli";

/** The text of --file, read as UTF-8 exactly (the service makes line endings "\n"). */
function textOf(value: string | undefined): string {
  const file = required(value, "file");
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

type Options = {
  host?: string;
  kind?: string;
  title?: string;
  file?: string;
  document?: string;
  account?: string;
  contact?: string;
  to?: string;
  offer?: string;
  state?: string;
  expires?: string;
  printLink?: boolean;
  json?: boolean;
};

/** The verbs of `portal agreement`. */
export function addAgreementVerbs(noun: Command, run: Run): void {
  const { out } = run;

  const printed = (document: Parameters<typeof printDocument>[1], heading: string, json: boolean | undefined) => {
    if (json) out(JSON.stringify({ document }, null, 2));
    else {
      out(heading);
      printDocument(out, document);
    }
    return 0;
  };
  const sent = (
    result: Awaited<ReturnType<typeof agreements.resendAgreementOffer>>,
    heading: string,
    json: boolean | undefined,
    links: ReturnType<typeof linkCollector>,
  ) => {
    if (json) out(JSON.stringify({ ...result, ...links.json() }, null, 2));
    else {
      out(heading);
      printOffer(out, result.offer);
      out(`  ${result.delivery.sent ? "emailed" : `NOT emailed: ${result.delivery.error}`}`);
      links.print();
    }
    return result.delivery.sent ? 0 : 1;
  };

  const create = verb(noun, "create", "a new agreement document and its version 1")
    .option(HOST_OPTION[0], HOST_OPTION[1])
    .option("--kind <kind>", `what it is (required): ${AGREEMENT_KINDS.join(", ")}`)
    .option("--title <title>", "its title (required)")
    .option("--file <text.md>", "its text, in the portal's simple Markdown (required)")
    .option(JSON_OPTION[0], JSON_OPTION[1]);
  runVerb(create, run, async (options: Options) => {
    const hostname = hostOf(options.host);
    const input = {
      kind: required(options.kind, "kind"),
      title: required(options.title, "title"),
      body: textOf(options.file),
    };
    const { businessId } = await businessAt(hostname);
    const document = await agreements.createAgreementDocument(businessId, input);
    return printed(document, "Created:", options.json);
  });

  const version = verb(
    noun,
    "version",
    "publish a document's next version (offers not yet decided show it from now on)",
  )
    .option(HOST_OPTION[0], HOST_OPTION[1])
    .option("--document <id>", "the document (required)")
    .option("--file <text.md>", "the new text (required)")
    .option(JSON_OPTION[0], JSON_OPTION[1]);
  runVerb(version, run, async (options: Options) => {
    const hostname = hostOf(options.host);
    const documentId = required(options.document, "document");
    const body = textOf(options.file);
    const { businessId } = await businessAt(hostname);
    const document = await agreements.publishAgreementVersion(businessId, documentId, { body });
    return printed(document, "Published:", options.json);
  });

  const list = verb(noun, "list", "the business's agreement documents")
    .option(HOST_OPTION[0], HOST_OPTION[1])
    .option(JSON_OPTION[0], JSON_OPTION[1]);
  runVerb(list, run, async (options: Options) => {
    const { businessId } = await businessAt(hostOf(options.host));
    const page = await agreementQueries.listAgreementDocuments(businessId, { limit: 100 });
    if (options.json) out(JSON.stringify(page, null, 2));
    else if (page.items.length === 0) out("No agreement documents.");
    else for (const document of page.items) printDocument(out, document);
    return 0;
  });

  const offer = verb(
    noun,
    "offer",
    "offer a document to a contact who may act for the account, and email them the link",
  )
    .option(HOST_OPTION[0], HOST_OPTION[1])
    .option("--document <id>", "the document (required)")
    .option("--account <number|id>", "the account (required)")
    .option("--to <contact>", "the contact, by email or id (required)")
    .option("--expires <days>", "how long it may be decided, e.g. 30d")
    .option(PRINT_LINK_OPTION[0], PRINT_LINK_OPTION[1])
    .option(JSON_OPTION[0], JSON_OPTION[1]);
  runVerb(offer, run, async (options: Options) => {
    const hostname = hostOf(options.host);
    const expiresInDays = days(options.expires);
    const input = {
      document: required(options.document, "document"),
      account: required(options.account, "account"),
      contact: required(options.to, "to"),
      ...(expiresInDays ? { expiresInDays } : {}),
    };
    const { businessId } = await businessAt(hostname);
    const links = linkCollector(options.printLink, out);
    const result = await agreements.createAgreementOffer(businessId, input, { onLink: links.onLink });
    return sent(result, "Offered:", options.json, links);
  });

  const offers = verb(noun, "offers", "the offers of an account or a contact")
    .usage("--host <host> (--account <number|id> | --contact <email|id>) [options]")
    .option(HOST_OPTION[0], HOST_OPTION[1])
    .option("--account <number|id>", "the account's offers")
    .option("--contact <contact>", "the contact's offers, by email or id")
    .option("--state <state>", `only those in one state: ${AGREEMENT_OFFER_STATES.join(", ")}`)
    .option(JSON_OPTION[0], JSON_OPTION[1]);
  runVerb(offers, run, async (options: Options) => {
    const { businessId } = await businessAt(hostOf(options.host));
    const page = await agreementQueries.listAgreementOffers(businessId, {
      account: options.account,
      contact: options.contact,
      state: options.state,
      limit: 100,
    });
    if (options.json) out(JSON.stringify(page, null, 2));
    else if (page.items.length === 0) out("No agreement offers.");
    else for (const item of page.items) printOffer(out, item);
    return 0;
  });

  const resend = verb(noun, "resend", "a new link; the old one stops working")
    .option(HOST_OPTION[0], HOST_OPTION[1])
    .option("--offer <AG-…|id>", "the offer (required)")
    .option(PRINT_LINK_OPTION[0], PRINT_LINK_OPTION[1])
    .option(JSON_OPTION[0], JSON_OPTION[1]);
  runVerb(resend, run, async (options: Options) => {
    const hostname = hostOf(options.host);
    const offerId = required(options.offer, "offer");
    const { businessId } = await businessAt(hostname);
    const links = linkCollector(options.printLink, out);
    const result = await agreements.resendAgreementOffer(businessId, offerId, { onLink: links.onLink });
    return sent(result, "Sent again (the earlier link no longer works):", options.json, links);
  });

  const withdraw = verb(noun, "withdraw", "an offer can no longer be decided")
    .option(HOST_OPTION[0], HOST_OPTION[1])
    .option("--offer <AG-…|id>", "the offer (required)")
    .option(JSON_OPTION[0], JSON_OPTION[1]);
  runVerb(withdraw, run, async (options: Options) => {
    const hostname = hostOf(options.host);
    const offerId = required(options.offer, "offer");
    const { businessId } = await businessAt(hostname);
    const withdrawn = await agreements.withdrawAgreementOffer(businessId, offerId);
    if (options.json) out(JSON.stringify({ offer: withdrawn }, null, 2));
    else {
      out("Withdrawn (its links no longer work):");
      printOffer(out, withdrawn);
    }
    return 0;
  });
}
