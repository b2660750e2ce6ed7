import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Form, Link } from "@remix-run/react";
import * as buttons from "~/components/Button.css";
import { useT } from "~/components/useT";
import { metaTranslator } from "~/lib/i18n";
import {
  pageNotFound,
  findBrandVersionOf,
  requireHostAdminPage,
  startBrandPreview,
  requireSameOrigin,
} from "./branding.server";
import { metaDescription } from "~/lib/meta";
import { ENHANCED_PAGE } from "~/lib/client-runtime";

/**
 * /admin/branding/preview/<versionId>: a preview link one admin shares with another admin of
 * the same business (issue 16). Opening it changes nothing by itself (a GET never does): the
 * page asks, and "Open this preview" posts, which sets this admin's own session to preview
 * the version. Another business's version, or anyone who is not a host admin here: 404.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { branding } = await requireHostAdminPage(request);
  const version = await findBrandVersionOf(branding.businessId, params.versionId);
  if (!version) throw pageNotFound();
  return { versionId: version.id, businessName: branding.businessName };
}

export async function action({ request, params }: ActionFunctionArgs) {
  requireSameOrigin(request);
  const { session } = await requireHostAdminPage(request);
  const started = await startBrandPreview(session, params.versionId);
  if (!started) throw pageNotFound();
  return redirect("/admin/branding/preview");
}

/** No React (decision 084): a form that posts, with the Menu and the session across tabs from `enhance.js`. */
export const handle = ENHANCED_PAGE;

export default function SharedBrandPreview() {
  const t = useT();
  return (
    <>
      <h1>{t("branding.share.title")}</h1>
      <p>{t("branding.share.intro")}</p>
      <Form method="post">
        <button type="submit" className={buttons.button}>
          {t("branding.share.open")}
        </button>
      </Form>
      <p>
        <Link to="/admin/branding">{t("branding.preview.back")}</Link>
      </p>
    </>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => {
  const t = metaTranslator(matches);
  if (!data) return [{ title: t("errors.notFound.title") }, metaDescription(matches, "meta.notFound")];
  return [
    { title: `${t("branding.share.title")} · ${data.businessName}` },
    metaDescription(matches, "meta.brandingShare", data.businessName),
  ];
};
