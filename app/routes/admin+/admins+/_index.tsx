import { getFormProps, getInputProps, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import * as buttons from "~/components/Button.css";
import { useConstraintForm, type ConstraintMessages } from "~/components/ConstraintForm";
import { ErrorSummary } from "~/components/ErrorSummary";
import { Field, FormMessage, formStyles } from "~/components/Form";
import { useT } from "~/components/useT";
import { GrantHostAdminSchema, RemoveHostAdminSchema } from "~/lib/host-admin-schema";
import { metaTranslator, type MessageKey } from "~/lib/i18n";
import { metaDescription } from "~/lib/meta";
import * as styles from "../components/Admin.css";
import {
  grantHostAdminByEmail,
  hostAdminsView,
  parseSubmission,
  readForm,
  removeHostAdminById,
  requireHostAdminPage,
  requireSameOrigin,
} from "./admins.server";
import { ENHANCED_PAGE } from "~/lib/client-runtime";

const MESSAGES: ConstraintMessages = {
  email: {
    required: "admins.error.email.required",
    invalid: "admins.error.email.invalid",
  },
};

/** What the page says after a change, by `?done=` (POST/redirect/GET). */
const DONE: Record<"granted" | "already" | "removed", MessageKey> = {
  granted: "admins.done.granted",
  already: "admins.done.already",
  removed: "admins.done.removed",
};

/**
 * /admin/admins (issue 32; decision 080): who is a host admin of this business; "Add an admin" by
 * the email address of another contact of the business; "Remove", asked once (`?remove=<id>`, a
 * plain page without JavaScript). Never one's own rights, never the last admin who can sign in.
 * Every change is in the branding page's history.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const { branding, actor } = await requireHostAdminPage(request);
  const view = await hostAdminsView(branding, actor, new URL(request.url).searchParams);
  return { ...view, constraint: getZodConstraint(GrantHostAdminSchema) };
}

type AdminsReply = {
  intent: "grant" | "remove" | null;
  result: SubmissionResult<string[]> | null;
  formError: MessageKey | null;
  name?: string;
};

export async function action({ request }: ActionFunctionArgs) {
  requireSameOrigin(request);
  const { actor } = await requireHostAdminPage(request);
  const form = await readForm(request);
  const intent = form.get("intent");
  switch (intent) {
    case "grant": {
      const submission = parseSubmission(form, { schema: GrantHostAdminSchema });
      if (submission.status !== "success") {
        return data<AdminsReply>({ intent, result: submission.reply(), formError: null }, { status: 400 });
      }
      const outcome = await grantHostAdminByEmail(actor, submission.value.email);
      if (!outcome.ok) {
        return data<AdminsReply>(
          { intent, result: submission.reply({ fieldErrors: { email: [outcome.emailError] } }), formError: null },
          { status: 400 },
        );
      }
      return redirect(outcome.location);
    }
    case "remove": {
      const submission = parseSubmission(form, { schema: RemoveHostAdminSchema });
      if (submission.status !== "success") {
        return data<AdminsReply>({ intent, result: null, formError: "admins.error.contact" }, { status: 400 });
      }
      const outcome = await removeHostAdminById(actor, submission.value.contactId);
      if (!outcome.ok) {
        return data<AdminsReply>(
          { intent, result: null, formError: outcome.message, name: outcome.name },
          { status: 409 },
        );
      }
      return redirect(outcome.location);
    }
    default:
      return data<AdminsReply>({ intent: null, result: null, formError: "admins.error.intent" }, { status: 400 });
  }
}

/** No React here: the form posts and the links navigate as HTML does; the small shared conveniences only (decision 084). */
export const handle = ENHANCED_PAGE;

export default function AdminsPage() {
  const view = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const t = useT();
  const params = { business: view.businessName };
  const reply = actionData?.intent === "grant" ? actionData.result : null;
  const [form, fields] = useConstraintForm<"email">({
    id: "grant-admin",
    lastResult: reply,
    constraint: view.constraint,
    messages: MESSAGES,
  });
  const emailError = fields.email.errors?.[0];
  const formError = actionData?.formError ?? view.refusal;
  const { key: emailKey, ...emailProps } = getInputProps(fields.email, { type: "email", ariaAttributes: false });

  return (
    <>
      <h1>{t("admins.title")}</h1>
      {view.done ? <FormMessage kind="notice">{t(DONE[view.done.kind], { name: view.done.name })}</FormMessage> : null}
      {emailError ? (
        <ErrorSummary id="grant-errors" title={t("admins.error.summary")} answer={actionData}>
          <li>
            <a href={`#${fields.email.id}`}>{t(emailError as MessageKey, params)}</a>
          </li>
        </ErrorSummary>
      ) : null}
      {formError ? (
        <FormMessage kind="error">{t(formError, { ...params, name: actionData?.name ?? "" })}</FormMessage>
      ) : null}
      {view.askRemove ? (
        <section className={styles.section} aria-labelledby="remove-admin">
          <h2 id="remove-admin">{t("admins.confirm.title", { name: view.askRemove.name })}</h2>
          <p>{t("admins.confirm.body", { name: view.askRemove.name, email: view.askRemove.email })}</p>
          <div className={formStyles.actions}>
            <Form method="post" action="/admin/admins">
              <input type="hidden" name="contactId" value={view.askRemove.id} />
              <button type="submit" name="intent" value="remove" className={buttons.button}>
                {t("admins.confirm.submit")}
              </button>
            </Form>
            <Link to="/admin/admins" className={buttons.secondaryButton}>
              {t("admins.confirm.cancel")}
            </Link>
          </div>
        </section>
      ) : null}
      <p>{t("admins.intro", params)}</p>

      <section className={styles.section} aria-labelledby="admins-list">
        <h2 id="admins-list">{t("admins.list.title")}</h2>
        <ul className={styles.people}>
          {view.admins.map((admin) => (
            <li key={admin.id} className={styles.person}>
              <span className={styles.personText}>
                <span className={styles.personName}>{admin.name || admin.email}</span>
                {admin.name ? <span>{admin.email}</span> : null}
                {admin.active ? null : <span className={styles.personNote}>{t("admins.inactive")}</span>}
              </span>
              {admin.id === view.you ? (
                <span className={styles.you}>{t("admins.you")}</span>
              ) : (
                <Link
                  to={`/admin/admins?remove=${admin.id}`}
                  className={buttons.secondaryButton}
                  aria-label={t("admins.removeName", { name: admin.name || admin.email })}
                >
                  {t("admins.remove")}
                </Link>
              )}
            </li>
          ))}
        </ul>
        {view.more ? <p>{t("admins.more", { count: view.admins.length })}</p> : null}
      </section>

      <section className={styles.section} aria-labelledby="admins-add">
        <h2 id="admins-add">{t("admins.add.title")}</h2>
        <Form method="post" action="/admin/admins" {...getFormProps(form)} className={styles.form}>
          <Field
            key={emailKey}
            {...emailProps}
            label={t("admins.add.email")}
            hint={t("admins.add.hint", params)}
            error={emailError ? t(emailError as MessageKey, params) : null}
            autoComplete="off"
            spellCheck={false}
          />
          <div className={formStyles.actions}>
            <button type="submit" name="intent" value="grant" className={buttons.button}>
              {t("admins.add.submit")}
            </button>
          </div>
        </Form>
      </section>
    </>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => {
  const t = metaTranslator(matches);
  if (!data) return [{ title: t("errors.notFound.title") }, metaDescription(matches, "meta.notFound")];
  return [
    { title: `${t("admins.title")} · ${data.businessName}` },
    metaDescription(matches, "meta.admins", data.businessName),
  ];
};
