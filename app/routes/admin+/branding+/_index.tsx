import { getFormProps, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { BrandingChanges } from "./components/BrandingChanges";
import { BrandingContrast } from "./components/BrandingContrast";
import { BrandingThemeChooser } from "./components/BrandingThemeChooser";
import * as styles from "./components/Branding.css";
import * as buttons from "~/components/Button.css";
import { ConformField, useConstraintForm, type ConstraintMessages } from "~/components/ConstraintForm";
import { FormMessage, formStyles } from "~/components/Form";
import * as table from "~/components/Table.css";
import { useT } from "~/components/useT";
import {
  CUSTOM_COLOUR_CHOICE,
  isAdminHistoryEntry,
  type AdminHistoryEntry,
  type BrandChangeView,
  type BrandSummary,
} from "~/lib/brand-admin";
import type { PairCheck } from "~/lib/brand-colours";
import { BrandDraftSchema } from "~/lib/brand-draft-schema";
import { BRAND_UPLOAD_ACCEPT, BRAND_UPLOAD_LIMITS } from "~/lib/brand-uploads";
import { formatFileSize } from "~/lib/format";
import { metaTranslator, type MessageKey } from "~/lib/i18n";
import {
  brandAdminView,
  discardBrandDraft,
  publishBrandDraft,
  readBrandAdminForm,
  restoreBrand,
  saveBrandDraft,
  requireHostAdminPage,
  themeSwatches,
  requireSameOrigin,
  parseSubmission,
} from "./branding.server";
import { metaDescription } from "~/lib/meta";
import { visuallyHidden } from "~/styles/global.css";

const MESSAGES: ConstraintMessages = {
  businessName: { required: "branding.error.businessName.required", invalid: "branding.error.text.tooLong" },
  label: { invalid: "branding.error.text.tooLong" },
  brandColour: { invalid: "branding.error.colour.invalid" },
  logo: { invalid: "branding.error.upload.tooLarge" },
  favicon: { invalid: "branding.error.upload.tooLarge" },
};

type DraftFields = "theme" | "brandColour" | "brandColourPicker" | "businessName" | "label" | "logo" | "favicon";

/** What the page says after a POST/redirect/GET, by `?done=`. */
const DONE: Record<string, MessageKey> = {
  saved: "branding.done.saved",
  published: "branding.done.published",
  restored: "branding.done.restored",
  stopped: "branding.done.stopped",
  discarded: "branding.done.discarded",
};

/**
 * /admin/branding (issue 16): a host admin's draft brand (a theme or a custom colour, name,
 * label, logo, favicon), its contrast, the way to preview it, publish it with its changes
 * listed, and the history with "Restore" on the previous brand. Nothing here changes what
 * customers see until "Publish".
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const { branding } = await requireHostAdminPage(request);
  const view = await brandAdminView(request, branding);
  const query = new URL(request.url).searchParams;
  const done = query.get("done");
  return {
    ...view,
    done: done && Object.hasOwn(DONE, done) ? done : null,
    // "Discard the draft" asks once (`?discard=1`), with JavaScript or without.
    askDiscard: query.get("discard") === "1" && view.draft !== null,
    // "Restore" asks once too (`?restore=<publication>`), saying what it changes back.
    askRestore: restoreAsked(
      view.history.filter((entry) => !isAdminHistoryEntry(entry)),
      query.get("restore"),
    ),
    constraint: getZodConstraint(BrandDraftSchema),
    swatches: themeSwatches(),
    limits: {
      logo: {
        size: formatFileSize(BRAND_UPLOAD_LIMITS.logo.maxBytes),
        width: BRAND_UPLOAD_LIMITS.logo.maxWidth,
        height: BRAND_UPLOAD_LIMITS.logo.maxHeight,
      },
      favicon: {
        size: formatFileSize(BRAND_UPLOAD_LIMITS.favicon.maxBytes),
        width: BRAND_UPLOAD_LIMITS.favicon.maxWidth,
        height: BRAND_UPLOAD_LIMITS.favicon.maxHeight,
      },
    },
  };
}

/** The restorable publication `?restore=` names, with what restoring it changes (its changes, undone). */
function restoreAsked(
  history: { id: string; at: string; restorable: boolean; changes: BrandChangeView[] }[],
  id: string | null,
) {
  const entry = id ? history.find((item) => item.id === id && item.restorable) : undefined;
  if (!entry) return null;
  return {
    publicationId: entry.id,
    at: entry.at,
    changes: entry.changes
      .filter((change) => change.field !== "tokens")
      .map((change) => ({ field: change.field, from: change.to, to: change.from })),
  };
}

/** What the action answers when it does not redirect; `useActionData<typeof action>()` infers it. */
type BrandingReply = {
  intent: "save" | "publish" | "restore" | "discard" | null;
  result: SubmissionResult<string[]> | null;
  formError: MessageKey | null;
  suggestion?: string | null;
  checks?: PairCheck[] | null;
};

export async function action({ request }: ActionFunctionArgs) {
  requireSameOrigin(request);
  const { session, actor } = await requireHostAdminPage(request);
  const form = await readBrandAdminForm(request);
  if (!form.ok) {
    return data<BrandingReply>(
      { intent: "save", result: null, formError: `branding.error.form.${form.problem}` as MessageKey },
      { status: form.problem === "tooLarge" ? 413 : 400 },
    );
  }
  const intent = form.fields.intent;
  switch (intent) {
    case "useSuggestion":
    case "save": {
      // "Use #d5b000 and save": the colour the refusal suggested, as the custom colour, then a save.
      if (intent === "useSuggestion") {
        form.formData.set("theme", CUSTOM_COLOUR_CHOICE);
        form.formData.set("brandColour", form.fields.suggestedColour ?? "");
      }
      form.formData.delete("suggestedColour");
      const submission = parseSubmission(form.formData, { schema: BrandDraftSchema, allow: ["intent"] });
      if (submission.status !== "success") {
        return data<BrandingReply>({ intent: "save", result: submission.reply(), formError: null }, { status: 400 });
      }
      const outcome = await saveBrandDraft(actor, submission.value, form.files);
      if (!outcome.ok) {
        return data<BrandingReply>(
          {
            intent: "save",
            result: submission.reply({ fieldErrors: outcome.fieldErrors }),
            formError: null,
            suggestion: outcome.suggestion,
            checks: outcome.checks,
          },
          { status: 400 },
        );
      }
      return redirect("/admin/branding?done=saved");
    }
    case "publish": {
      const outcome = await publishBrandDraft(actor, session, form.fields.draftId);
      if (!outcome.ok)
        return data<BrandingReply>({ intent, result: null, formError: outcome.message }, { status: 409 });
      return redirect("/admin/branding?done=published");
    }
    case "discard": {
      if (!(await discardBrandDraft(actor, session))) {
        return data<BrandingReply>({ intent, result: null, formError: "branding.error.discard" }, { status: 409 });
      }
      return redirect("/admin/branding?done=discarded");
    }
    case "restore": {
      const outcome = await restoreBrand(actor, form.fields.publicationId, form.fields.liveVersionId);
      if (!outcome.ok)
        return data<BrandingReply>({ intent, result: null, formError: outcome.message }, { status: 409 });
      return redirect("/admin/branding?done=restored");
    }
    default:
      return data<BrandingReply>({ intent: null, result: null, formError: "branding.error.intent" }, { status: 400 });
  }
}

export default function BrandingPage() {
  const view = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const t = useT();
  const { draft, published } = view;
  const current = draft ?? published;
  const reply = actionData?.intent === "save" ? actionData.result : null;
  const [form, fields] = useConstraintForm<DraftFields>({
    id: "brand-draft-form",
    lastResult: reply,
    constraint: view.constraint,
    messages: MESSAGES,
    defaultValue: {
      theme: current.brandColour ? CUSTOM_COLOUR_CHOICE : current.theme,
      brandColour: current.brandColour ?? "",
      businessName: current.businessName,
      label: current.label,
    },
  });
  const errorOf = (name: DraftFields) => fields[name].errors?.[0] ?? null;
  const fieldErrors = Object.keys(form.allErrors).length > 0;
  // With JavaScript, the contrast of the colour being typed (BrandingThemeChooser's live check).
  const [liveChecks, setLiveChecks] = useState<PairCheck[] | null>(null);
  const [answered, setAnswered] = useState(actionData);
  if (answered !== actionData) {
    setAnswered(actionData);
    setLiveChecks(null);
  }
  const checks = liveChecks ?? actionData?.checks ?? view.checks;

  return (
    <>
      <h1>{t("branding.title")}</h1>
      {view.done ? <FormMessage kind="notice">{t(DONE[view.done]!)}</FormMessage> : null}
      {view.askRestore ? (
        <RestoreAsk ask={view.askRestore} liveVersionId={published.versionId ?? ""} />
      ) : draft ? (
        <DraftActions draft={draft} previewing={view.previewing} askDiscard={view.askDiscard} />
      ) : null}
      {actionData?.formError ? <FormMessage kind="error">{t(actionData.formError)}</FormMessage> : null}
      {reply && fieldErrors ? <FormMessage kind="error">{t("branding.error.summary")}</FormMessage> : null}
      <p>{t("branding.intro")}</p>

      <section className={styles.section} aria-labelledby="brand-live">
        <h2 id="brand-live">{t("branding.live.title")}</h2>
        <BrandDetails brand={published} />
      </section>

      <section className={styles.section} aria-labelledby="brand-draft">
        <h2 id="brand-draft">{t("branding.draft.title")}</h2>
        <p>{draft ? t("branding.draft.savedAt", { when: draft.savedAt }) : t("branding.draft.none")}</p>
        <Form method="post" encType="multipart/form-data" {...getFormProps(form)} className={styles.formWide}>
          {/* Enter in a field saves (the form's first submit button), never "Use #… and save" below. */}
          <button type="submit" name="intent" value="save" className={visuallyHidden} tabIndex={-1} aria-hidden="true">
            {t("branding.save")}
          </button>
          <BrandingThemeChooser
            swatches={view.swatches}
            theme={fields.theme.initialValue ?? current.theme}
            brandColour={fields.brandColour.initialValue ?? ""}
            themeError={errorOf("theme")}
            colourError={errorOf("brandColour")}
            suggestion={actionData?.suggestion ?? null}
            onChecks={setLiveChecks}
            serverAnswer={actionData}
          />
          <ConformField
            meta={fields.businessName}
            label={t("branding.field.businessName")}
            hint={t("branding.text.hint")}
            autoComplete="organization"
          />
          <ConformField
            meta={fields.label}
            label={t("branding.field.label")}
            hint={t("branding.text.hint")}
            autoComplete="off"
          />
          <UploadField kind="logo" current={current.logoUrl} limits={view.limits.logo} error={errorOf("logo")} />
          <UploadField
            kind="favicon"
            current={current.faviconUrl}
            limits={view.limits.favicon}
            error={errorOf("favicon")}
          />
          <div className={formStyles.actions}>
            <button type="submit" name="intent" value="save" className={buttons.button}>
              {t("branding.save")}
            </button>
          </div>
        </Form>
        <BrandingContrast
          checks={checks}
          caption={
            liveChecks
              ? t("branding.contrast.captionLive")
              : actionData?.checks
                ? t("branding.contrast.captionRefused")
                : t("branding.contrast.caption")
          }
        />
      </section>

      {draft && view.changes.length > 0 ? (
        <section className={styles.section} aria-labelledby="brand-publish">
          <h2 id="brand-publish">{t("branding.publish.title")}</h2>
          <p>{t("branding.publish.intro")}</p>
          <BrandingChanges changes={view.changes} />
          <Form method="post">
            <input type="hidden" name="draftId" value={draft.versionId ?? ""} />
            <button type="submit" name="intent" value="publish" className={buttons.button}>
              {t("branding.publish.submit")}
            </button>
          </Form>
        </section>
      ) : null}

      <section className={styles.section} aria-labelledby="brand-history">
        <h2 id="brand-history">{t("branding.history.title")}</h2>
        {view.history.length === 0 ? (
          <p>{t("branding.history.none")}</p>
        ) : (
          <ol className={styles.history}>
            {view.history.map((entry) =>
              !isAdminHistoryEntry(entry) ? (
                <li key={entry.id} className={styles.historyItem}>
                  <p>
                    {t(entry.kind === "rollback" ? "branding.history.restored" : "branding.history.published", {
                      when: entry.at,
                      who: entry.by ?? t("branding.history.someone"),
                    })}
                  </p>
                  <BrandingChanges changes={entry.changes} />
                  {entry.restorable ? (
                    // Asks once, at the top of the page, with what it changes back.
                    <Link to={`/admin/branding?restore=${entry.id}`} className={buttons.secondaryButton}>
                      {t("branding.history.restore")}
                    </Link>
                  ) : null}
                </li>
              ) : (
                <AdminChangeEntry key={entry.id} entry={entry} />
              ),
            )}
          </ol>
        )}
      </section>
    </>
  );
}

/** "Restore the brand before this?", asked once, with the lines it changes back and both choices. */
function RestoreAsk({
  ask,
  liveVersionId,
}: {
  ask: { publicationId: string; at: string; changes: BrandChangeView[] };
  liveVersionId: string;
}) {
  const t = useT();
  return (
    <section className={styles.section} aria-labelledby="brand-restore">
      <h2 id="brand-restore">{t("branding.restore.title")}</h2>
      <p>{t("branding.restore.ask", { when: ask.at })}</p>
      <BrandingChanges changes={ask.changes} />
      <div className={formStyles.actions}>
        <Form method="post">
          <input type="hidden" name="publicationId" value={ask.publicationId} />
          <input type="hidden" name="liveVersionId" value={liveVersionId} />
          <button type="submit" name="intent" value="restore" className={buttons.button}>
            {t("branding.restore.submit")}
          </button>
        </Form>
        <Link to="/admin/branding" className={buttons.secondaryButton}>
          {t("branding.restore.keep")}
        </Link>
      </div>
    </section>
  );
}

/**
 * What a host admin does next with a draft, at the top of the page (issue 32): preview it, go to
 * the list of what publishing changes (and its Publish button), or discard it — asked once.
 */
function DraftActions({
  draft,
  previewing,
  askDiscard,
}: {
  draft: { versionId: string | null; savedAt: string };
  previewing: boolean;
  askDiscard: boolean;
}) {
  const t = useT();
  if (askDiscard) {
    return (
      <section className={styles.section} aria-labelledby="brand-discard">
        <h2 id="brand-discard">{t("branding.discard.title")}</h2>
        <p>{t("branding.discard.ask", { when: draft.savedAt })}</p>
        <div className={formStyles.actions}>
          <Form method="post">
            <button type="submit" name="intent" value="discard" className={buttons.button}>
              {t("branding.discard.submit")}
            </button>
          </Form>
          <Link to="/admin/branding" className={buttons.secondaryButton}>
            {t("branding.discard.keep")}
          </Link>
        </div>
      </section>
    );
  }
  return (
    <section className={styles.section} aria-label={t("branding.next.label")}>
      <p>{t("branding.draft.savedAt", { when: draft.savedAt })}</p>
      <p className={formStyles.hint}>{t("branding.preview.intro")}</p>
      <div className={formStyles.actions}>
        <Form method="post" action="/admin/branding/preview">
          <input type="hidden" name="versionId" value={draft.versionId ?? ""} />
          <button type="submit" name="intent" value="start" className={buttons.button}>
            {previewing ? t("branding.preview.open") : t("branding.preview.start")}
          </button>
        </Form>
        <a href="#brand-publish" className={buttons.secondaryButton}>
          {t("branding.next.publish")}
        </a>
        <Link to="/admin/branding?discard=1" className={buttons.linkButton}>
          {t("branding.next.discard")}
        </Link>
      </div>
    </section>
  );
}

/** A history line saying who gave or took away a contact's admin rights (issue 32; decision 080). */
function AdminChangeEntry({ entry }: { entry: AdminHistoryEntry }) {
  const t = useT();
  return (
    <li className={styles.historyItem}>
      <p>
        {t(entry.kind === "adminGranted" ? "branding.history.adminGranted" : "branding.history.adminRemoved", {
          when: entry.at,
          whom: entry.whom ?? t("branding.history.formerContact"),
          who: entry.by ?? (entry.byBackOffice ? t("branding.history.backOffice") : t("branding.history.someone")),
        })}
      </p>
    </li>
  );
}

function BrandDetails({ brand }: { brand: BrandSummary }) {
  const t = useT();
  return (
    <dl className={table.details}>
      <dt>{t("branding.field.theme")}</dt>
      <dd>
        {brand.brandColour
          ? t("branding.customColour", { colour: brand.brandColour })
          : t(`branding.theme.${brand.theme}` as MessageKey)}
      </dd>
      <dt>{t("branding.field.businessName")}</dt>
      <dd>{brand.businessName}</dd>
      <dt>{t("branding.field.label")}</dt>
      <dd>{brand.label || t("branding.changes.none")}</dd>
      <dt>{t("branding.field.logo")}</dt>
      <dd>
        {/* The live brand leads the page: in the first screen, so loaded at once. */}
        <img
          className={styles.currentImage}
          src={brand.logoUrl}
          alt={t("branding.logo.alt")}
          width={160}
          height={64}
          loading="eager"
        />
      </dd>
    </dl>
  );
}

function UploadField({
  kind,
  current,
  limits,
  error: serverError,
}: {
  kind: "logo" | "favicon";
  current: string;
  limits: { size: string; width: number; height: number };
  error: string | null;
}) {
  const t = useT();
  // With JavaScript a file over the limit is refused before it is sent (the browser's own
  // constraint check stops the submit); without it, the front door answers 413 unread.
  const [tooLarge, setTooLarge] = useState(false);
  const field = useRef<HTMLInputElement>(null);
  const checkSize = (input: HTMLInputElement) => {
    const over = (input.files?.[0]?.size ?? 0) > BRAND_UPLOAD_LIMITS[kind].maxBytes;
    input.setCustomValidity(over ? t("branding.error.upload.tooLarge") : "");
    setTooLarge(over);
  };
  // A file chosen before the page's script ran (decision 087) is checked as it hydrates, as if chosen now.
  useEffect(() => {
    if (field.current) checkSize(field.current);
    // Once, at hydration: later choices come through onChange.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  const error = tooLarge ? "branding.error.upload.tooLarge" : serverError;
  const id = `brand-${kind}`;
  const hintId = `${id}-hint`;
  const errorId = error ? `${id}-error` : undefined;
  return (
    <div className={formStyles.field}>
      <label className={formStyles.label} htmlFor={id}>
        {t(`branding.field.${kind}`)}
      </label>
      <p id={hintId} className={formStyles.hint}>
        {t("branding.upload.hint", { size: limits.size, width: limits.width, height: limits.height })}
      </p>
      {/* Inside the draft's form, below the first screen: fetched as it comes near (spec §9; decision 094). */}
      <img
        className={styles.currentImage}
        src={current}
        alt={t(`branding.${kind}.current`)}
        width={160}
        height={64}
        loading="lazy"
        decoding="async"
      />
      <input
        id={id}
        name={kind}
        type="file"
        accept={BRAND_UPLOAD_ACCEPT}
        ref={field}
        onChange={(event) => checkSize(event.currentTarget)}
        className={formStyles.input}
        aria-invalid={error ? true : undefined}
        aria-describedby={[hintId, errorId].filter(Boolean).join(" ")}
      />
      {error ? (
        <p id={errorId} className={formStyles.error}>
          {t(error as MessageKey)}
        </p>
      ) : null}
    </div>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => {
  const t = metaTranslator(matches);
  if (!data) return [{ title: t("errors.notFound.title") }, metaDescription(matches, "meta.notFound")];
  return [
    { title: `${t("branding.title")} · ${data.published.businessName}` },
    metaDescription(matches, "meta.branding", data.published.businessName),
  ];
};
