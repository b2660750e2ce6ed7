import { Form } from "@remix-run/react";
import { useSyncExternalStore } from "react";
import type { MessageKey } from "~/lib/i18n";
import { parseSimpleMarkdown } from "~/lib/simple-markdown";
import * as styles from "./Agreement.css";
import * as buttonStyles from "./Button.css";
import { Field, FormMessage, formStyles } from "./Form";
import { BusinessContact } from "./BusinessContact";
import * as tableStyles from "./Table.css";
import { useT } from "./useT";

/**
 * An agreement as its contact sees it (issue 15; decision 036), by emailed link or signed in:
 * the exact text of the version, printable, and the decision form (typed name, a checkbox to
 * accept, Accept or Decline); once decided, the record and its downloads; or, when it can no
 * longer be opened, why, with the business's contact details. Everything works without
 * JavaScript: the form is a plain POST, and printing is the browser's own Print (the page's
 * print styles leave out the shell, the form and the buttons); with JavaScript a Print button
 * appears as well.
 */
export type AgreementFacts = {
  reference: string;
  title: string;
  kind: MessageKey;
  version: number;
  versionId: string;
  published: string;
  account: string;
};

export type AgreementOpenData = {
  kind: "open";
  businessName: string;
  offer: AgreementFacts;
  body: string;
  notice: "changed" | "stale" | "closed" | null;
  nameMax: number;
};

export type AgreementRecordData = {
  kind: "record";
  businessName: string;
  offer: AgreementFacts;
  body: string;
  notice: "recorded" | "decided" | null;
  record: {
    decision: "accepted" | "declined";
    name: string;
    contact: string;
    time: string;
  };
  downloads: { pdf: string; record: string; text: string };
};

export type AgreementClosedData = {
  kind: "closed";
  reason: "withdrawn" | "expired" | "replaced" | "decided";
  reference: string;
  businessName: string;
  decidedOn: string | null;
  contact: { email: string | null; phone: string | null };
};

export type AgreementReplyData = {
  errors: { typedName?: MessageKey; agreed?: MessageKey; intent?: MessageKey };
  values: { typedName: string; agreed: boolean };
};

function Heading({ data }: { data: { businessName: string; offer: AgreementFacts } }) {
  const t = useT();
  const { offer } = data;
  return (
    <>
      <h1>{offer.title}</h1>
      <p className={styles.meta}>
        {t("agreement.meta", {
          business: data.businessName,
          version: offer.version,
          date: offer.published,
          reference: offer.reference,
        })}
        <br />
        {t("agreement.account", { account: offer.account })}
      </p>
    </>
  );
}

/** The version's text, rendered from the portal's simple Markdown as text (never as HTML). */
export function AgreementText({ body, label }: { body: string; label: string }) {
  const blocks = parseSimpleMarkdown(body);
  return (
    <article className={styles.text} aria-label={label}>
      {blocks.map((block, index) => {
        switch (block.type) {
          case "heading": {
            // The page's h1 is the document's title: the text's own headings sit below it.
            const Tag = block.level === 1 ? "h2" : block.level === 2 ? "h3" : "h4";
            return <Tag key={index}>{block.text}</Tag>;
          }
          case "list":
            return (
              <ul key={index}>
                {block.items.map((item, itemIndex) => (
                  <li key={itemIndex}>{item}</li>
                ))}
              </ul>
            );
          default:
            return <p key={index}>{block.text}</p>;
        }
      })}
    </article>
  );
}

const noSubscription = () => () => {};

/** The browser's Print: the hint always, and a button once JavaScript can press Print for you. */
export function PrintControls() {
  const t = useT();
  // False on the server and while hydrating (so the markup matches), true once React runs the page.
  const canPrint = useSyncExternalStore(
    noSubscription,
    () => typeof window.print === "function",
    () => false,
  );
  return (
    <div className={styles.actions}>
      {canPrint ? (
        <button type="button" className={buttonStyles.secondaryButton} onClick={() => window.print()}>
          {t("agreement.print")}
        </button>
      ) : null}
      <p className={formStyles.hint}>{t("agreement.print.hint")}</p>
    </div>
  );
}

export function AgreementOpen({ data, reply }: { data: AgreementOpenData; reply: AgreementReplyData | null }) {
  const t = useT();
  const { offer } = data;
  const errors = reply?.errors ?? {};
  const problems = (["typedName", "agreed", "intent"] as const).filter((name) => errors[name]);
  const nameError = errors.typedName ? t(errors.typedName) : null;
  const agreedError = errors.agreed ? t(errors.agreed) : null;
  return (
    <>
      <Heading data={data} />
      {data.notice ? (
        <FormMessage kind="error">
          {data.notice === "changed"
            ? t("agreement.error.changed", { version: offer.version })
            : t(data.notice === "stale" ? "agreement.error.stale" : "agreement.error.closed")}
        </FormMessage>
      ) : null}
      <p>{t("agreement.lead", { kind: t(offer.kind), business: data.businessName })}</p>
      <p className={styles.noPrint}>
        <a href="#decision">{t("agreement.toDecision")}</a>
      </p>
      <AgreementText body={data.body} label={t("agreement.text", { title: offer.title, version: offer.version })} />
      <PrintControls />
      <section aria-labelledby="decision" className={styles.decision}>
        <h2 id="decision" tabIndex={-1}>
          {t("agreement.form")}
        </h2>
        {problems.length ? (
          <FormMessage kind="error" id="decision-errors">
            <strong>{t("agreement.error.summary")}</strong>
            <ul className={styles.errorList}>
              {problems.map((name) => (
                <li key={name}>
                  {name === "intent" ? t(errors.intent!) : <a href={`#${name}`}>{t(errors[name]!)}</a>}
                </li>
              ))}
            </ul>
          </FormMessage>
        ) : null}
        <Form method="post" className={formStyles.form}>
          <input type="hidden" name="versionId" value={offer.versionId} />
          <Field
            id="typedName"
            name="typedName"
            label={t("agreement.name")}
            hint={t("agreement.name.hint")}
            autoComplete="name"
            required
            maxLength={data.nameMax}
            defaultValue={reply?.values.typedName ?? ""}
            error={nameError}
          />
          <div className={formStyles.checkboxField}>
            <input
              type="checkbox"
              id="agreed"
              name="agreed"
              value="yes"
              defaultChecked={reply?.values.agreed ?? false}
              className={formStyles.checkbox}
              aria-invalid={agreedError ? true : undefined}
              aria-describedby={agreedError ? "agreed-error" : undefined}
            />
            <label htmlFor="agreed">{t("agreement.agreed", { title: offer.title, version: offer.version })}</label>
            {agreedError ? (
              <p id="agreed-error" className={formStyles.checkboxError}>
                {agreedError}
              </p>
            ) : null}
          </div>
          <div className={formStyles.actions}>
            <button type="submit" name="intent" value="accept" className={buttonStyles.button}>
              {t("agreement.accept")}
            </button>
            <button type="submit" name="intent" value="decline" className={buttonStyles.secondaryButton}>
              {t("agreement.decline")}
            </button>
          </div>
          <p className={formStyles.hint}>{t("agreement.decline.hint")}</p>
        </Form>
      </section>
    </>
  );
}

export function AgreementRecord({
  data,
  backHref,
}: {
  data: AgreementRecordData;
  backHref?: { href: string; label: string };
}) {
  const t = useT();
  const { offer, record } = data;
  const accepted = record.decision === "accepted";
  return (
    <>
      <Heading data={data} />
      {data.notice === "recorded" ? <FormMessage kind="notice">{t("agreement.recorded")}</FormMessage> : null}
      {data.notice === "decided" ? <FormMessage kind="error">{t("agreement.error.decided")}</FormMessage> : null}
      <section aria-labelledby="agreement-record">
        <h2 id="agreement-record">{t("agreement.record")}</h2>
        <p>
          {t(accepted ? "agreement.record.accepted" : "agreement.record.declined", {
            name: record.name,
            version: offer.version,
            time: record.time,
          })}
        </p>
        <dl className={tableStyles.details}>
          <dt>{t("agreement.record.decision")}</dt>
          <dd>{t(accepted ? "agreement.record.decision.accepted" : "agreement.record.decision.declined")}</dd>
          <dt>{t("agreement.record.name")}</dt>
          <dd>{record.name}</dd>
          <dt>{t("agreement.record.contact")}</dt>
          <dd>{record.contact}</dd>
          <dt>{t("agreement.record.time")}</dt>
          <dd>{record.time}</dd>
          <dt>{t("agreement.record.version")}</dt>
          <dd>{t("agreement.record.versionValue", { version: offer.version, date: offer.published })}</dd>
        </dl>
        {/* The client address, the text's SHA-256 and the UTC instant are the business's record and the
            downloaded copy's, not this page's (issue 32). */}
        <p className={formStyles.hint}>{t("agreement.record.downloadHint")}</p>
        <div className={styles.actions}>
          {/* Plain links to a file: the browser downloads them, with or without JavaScript. */}
          {/* The PDF first: the copy a phone opens and a clerk files (issue 34). The text record is the
              one whose bytes anyone can hash; the text alone, for those who want only it. */}
          <a href={data.downloads.pdf} className={buttonStyles.button} download>
            {t(accepted ? "agreement.download.accepted" : "agreement.download.declined")}
          </a>
          <a href={data.downloads.record} className={buttonStyles.secondaryButton} download>
            {t("pdf.agreement.download")}
          </a>
          <a href={data.downloads.text} className={buttonStyles.secondaryButton} download>
            {t("agreement.download.text")}
          </a>
        </div>
      </section>
      <PrintControls />
      <AgreementText body={data.body} label={t("agreement.text", { title: offer.title, version: offer.version })} />
      {backHref ? (
        <p className={styles.noPrint}>
          <a href={backHref.href}>{backHref.label}</a>
        </p>
      ) : null}
    </>
  );
}

/** Withdrawn, expired, replaced by a newer link, or decided under a link that no longer opens it. */
export function AgreementClosed({ data }: { data: AgreementClosedData }) {
  const t = useT();
  const params = { reference: data.reference, business: data.businessName, date: data.decidedOn ?? "" };
  return (
    <>
      <h1>{t(`agreement.closed.${data.reason}.title`)}</h1>
      <p>{t(`agreement.closed.${data.reason}.text`, params)}</p>
      <BusinessContact businessName={data.businessName} contact={data.contact} />
    </>
  );
}
