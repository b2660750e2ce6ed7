import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useEffect, useRef, useState, type ChangeEvent, type FormEvent } from "react";
import * as buttons from "~/components/Button.css";
import * as styles from "./components/Credit.css";
import { ErrorSummary, Honeypot, StepHeading, StepNotice } from "./components/CreditPage";
import * as formStyles from "~/components/Form.css";
import { useT } from "~/components/useT";
import { DOCUMENT_ACCEPT, DOCUMENT_KINDS, DRAFT_DAYS } from "~/lib/credit-steps";
import { metaTranslator, type MessageKey } from "~/lib/i18n";
import { CREDIT_PAGE_HEADERS, documentsAction, documentsView, requireSameOrigin } from "./credit.server";
import { metaDescription } from "~/lib/meta";

/**
 * Supporting documents (issue 17; decision 038): the files added so far with their sizes (spec
 * §9), a form to add one (what it is, the file) and "Continue". Optional: an application may go
 * without. One file a post, multipart, at most 10 MB: with JavaScript a larger file is refused at
 * the field before anything is sent; without it, the front door answers a larger declared upload
 * with a 413 page naming the limit (scripts/edge.js), and the server reads no more than the limit.
 * The server judges every file by its bytes (app/lib/credit-documents.ts).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  return documentsView(request);
}

export async function action({ request }: ActionFunctionArgs) {
  requireSameOrigin(request);
  return documentsAction(request);
}

export const headers: HeadersFunction = () => CREDIT_PAGE_HEADERS;

const NOTICES: Record<string, MessageKey> = {
  start: "credit.notice.start",
  incomplete: "credit.notice.incomplete",
  missing: "credit.notice.missing",
  uploaded: "credit.notice.uploaded",
  removed: "credit.notice.removed",
};

export default function CreditDocuments() {
  const view = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>();
  const t = useT();
  const navigation = useNavigation();
  // A file over the limit, caught in the browser before anything is sent (JavaScript only).
  const [tooLarge, setTooLarge] = useState(false);
  const errors = reply?.errors ?? {};
  const fileError = tooLarge ? "credit.documents.error.tooLarge" : (errors.file ?? null);
  const params = { size: view.maxSize, max: view.maxDocuments };
  const summary: [string, MessageKey][] = [];
  if (errors.kind) summary.push(["credit-kind", errors.kind]);
  if (fileError) summary.push(["credit-file", fileError]);
  const full = view.documents.length >= view.maxDocuments;
  const notice = view.notice && Object.hasOwn(NOTICES, view.notice) ? NOTICES[view.notice]! : null;

  function checkSize(event: ChangeEvent<HTMLInputElement>) {
    const file = event.currentTarget.files?.[0];
    setTooLarge(Boolean(file && file.size > view.maxBytes));
  }
  // A file chosen before the page's script ran (decision 087) is checked as it hydrates, as if chosen now.
  const fileField = useRef<HTMLInputElement>(null);
  useEffect(() => {
    const file = fileField.current?.files?.[0];
    if (file && file.size > view.maxBytes) setTooLarge(true);
  }, [view.maxBytes]);
  function refuseLarge(event: FormEvent<HTMLFormElement>) {
    const input = event.currentTarget.elements.namedItem("file");
    if (!(input instanceof HTMLInputElement)) return;
    const file = input.files?.[0];
    if (file && file.size > view.maxBytes) {
      event.preventDefault();
      setTooLarge(true);
      input.focus();
    }
  }

  return (
    <>
      <StepHeading data={view} title={t("credit.step.documents.title")}>
        <StepNotice notice={notice} params={{ days: DRAFT_DAYS }} />
        <ErrorSummary errors={summary} formError={errors.form ?? null} params={params} />
        <p className={styles.lead}>{t("credit.documents.lead")}</p>
        <p className={styles.lead}>{t("credit.documents.rules", params)}</p>
      </StepHeading>

      <h2>{t("credit.documents.list")}</h2>
      {view.documents.length === 0 ? (
        <p>{t("credit.documents.none")}</p>
      ) : (
        <ul className={styles.documents}>
          {view.documents.map((document) => (
            <li key={document.id} className={styles.document}>
              <span className={styles.documentName}>{document.fileName}</span>
              <span className={styles.documentFacts}>
                {t(`credit.kind.${document.kind}`)} · {document.size}
              </span>
              <Form method="post" encType="multipart/form-data" className={formStyles.inlineForm}>
                <input type="hidden" name="intent" value="remove" />
                <input type="hidden" name="documentId" value={document.id} />
                <button type="submit" className={buttons.secondaryButton}>
                  {t("credit.documents.remove", { name: document.fileName })}
                </button>
              </Form>
            </li>
          ))}
        </ul>
      )}

      {/* Re-made whenever the list changes, so a file just added is no longer chosen (JavaScript on). */}
      <Form
        key={view.documents.map((document) => document.id).join()}
        method="post"
        encType="multipart/form-data"
        className={styles.form}
        onSubmit={refuseLarge}
        noValidate
      >
        {full ? (
          <p>{t("credit.documents.full", params)}</p>
        ) : (
          <fieldset className={styles.group}>
            <legend className={styles.legend}>{t("credit.documents.add")}</legend>
            <div className={formStyles.field}>
              <label className={formStyles.label} htmlFor="credit-kind">
                {t("credit.field.documentKind")}
              </label>
              <select
                id="credit-kind"
                name="kind"
                defaultValue={reply?.values.kind ?? ""}
                className={styles.select}
                aria-invalid={errors.kind ? true : undefined}
                aria-describedby={errors.kind ? "credit-kind-error" : undefined}
              >
                <option value="">{t("credit.choose")}</option>
                {DOCUMENT_KINDS.map((kind) => (
                  <option key={kind} value={kind}>
                    {t(`credit.kind.${kind}`)}
                  </option>
                ))}
              </select>
              {errors.kind ? (
                <p id="credit-kind-error" className={formStyles.error}>
                  {t(errors.kind)}
                </p>
              ) : null}
            </div>
            <div className={formStyles.field}>
              <label className={formStyles.label} htmlFor="credit-file">
                {t("credit.field.file")}
              </label>
              <p id="credit-file-hint" className={formStyles.hint}>
                {t("credit.field.file.hint", params)}
              </p>
              <input
                ref={fileField}
                id="credit-file"
                type="file"
                name="file"
                accept={DOCUMENT_ACCEPT}
                data-max-bytes={view.maxBytes}
                onChange={checkSize}
                className={formStyles.input}
                aria-invalid={fileError ? true : undefined}
                aria-describedby={fileError ? "credit-file-hint credit-file-error" : "credit-file-hint"}
              />
              {fileError ? (
                <p id="credit-file-error" className={formStyles.error}>
                  {t(fileError, params)}
                </p>
              ) : null}
            </div>
            <div className={formStyles.actions}>
              <button
                type="submit"
                name="intent"
                value="upload"
                className={buttons.secondaryButton}
                disabled={navigation.state === "submitting"}
              >
                {t("credit.documents.upload")}
              </button>
            </div>
          </fieldset>
        )}
        {view.change ? <input type="hidden" name="returnTo" value="check" /> : null}
        <Honeypot />
        <p className={formStyles.hint}>{t("credit.documents.optional")}</p>
        <div className={formStyles.actions}>
          <button
            type="submit"
            name="intent"
            value="continue"
            className={buttons.button}
            disabled={navigation.state === "submitting"}
          >
            {t(view.change ? "credit.saveAndReturn" : "credit.continue")}
          </button>
        </div>
      </Form>
    </>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => {
  const t = metaTranslator(matches);
  if (!data) return [{ title: t("errors.notFound.title") }, metaDescription(matches, "meta.notFound")];
  const step = t("credit.step.documents.title");
  return [
    { title: `${step} · ${t("credit.title")} · ${data.businessName}` },
    metaDescription(matches, "meta.creditStep", data.businessName, { step }),
  ];
};
