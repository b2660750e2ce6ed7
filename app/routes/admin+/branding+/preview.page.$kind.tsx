import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { AdhocLinkOpen } from "../../_customer+/components/AdhocLinkOpen";
import { ScheduleAcceptance } from "../../_customer+/components/PaymentSchedule";
import { AgreementClosed, AgreementOpen, AgreementRecord } from "~/components/Agreement";
import { FormMessage } from "~/components/Form";
import { RequestOpen } from "~/components/PaymentRequest";
import { useT } from "~/components/useT";
import { isLinkPreviewKind, type LinkPreviewKind } from "~/lib/brand-preview";
import { metaTranslator, type MessageKey } from "~/lib/i18n";
import { metaDescription } from "~/lib/meta";
import { payFormShouldRevalidate } from "~/lib/pay-form";
import type { AcceptanceData } from "~/lib/schedule-pages";
import {
  adhocLinkPreview,
  agreementLinkPreview,
  pageNotFound,
  requestLinkPreview,
  requireHostAdminPage,
  requireSameOrigin,
  scheduleLinkPreview,
} from "./branding.server";
import { ENHANCED_PAGE } from "~/lib/client-runtime";

/**
 * /admin/branding/preview/page/<kind> (issue 32; decision 082): a page contacts open from an email
 * — a payment request, an ad-hoc payment link, a payment schedule's proposal, an agreement offer —
 * as the brand preview shows it, in its frames. Only a host admin of this host's business (404 for
 * anyone else, in the loader and the action), and only while their session previews a draft; the
 * root loader then draws the signed-out shell with the draft brand, as a contact without a session
 * sees it. The page is built by the link pages' own view functions from this business's own
 * records, never from a token, and writes nothing. Its forms post here, and every post is refused:
 * nothing can be paid, accepted or sent from a preview.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { branding } = await requireHostAdminPage(request);
  const kind = kindOf(params.kind);
  const base = { businessName: branding.businessName, kind };
  if (!branding.preview) return { ...base, running: false as const, preview: null };
  return { ...base, running: true as const, preview: await previewOf(request, branding, kind) };
}

type Branding = Awaited<ReturnType<typeof requireHostAdminPage>>["branding"];

/**
 * The page, built by its own domain from this business's records (`branding` is the host's
 * business, whose admin this is), or "empty" when the business has nothing to build it from yet.
 */
async function previewOf(request: Request, branding: Branding, kind: LinkPreviewKind) {
  const empty = { kind: "empty" as const, of: kind };
  switch (kind) {
    case "request": {
      const found = await requestLinkPreview(request, branding);
      return found ? { kind, ...found } : empty;
    }
    case "adhoc": {
      const found = await adhocLinkPreview(branding);
      return found ? { kind, ...found } : empty;
    }
    case "schedule": {
      const found = await scheduleLinkPreview(request, branding);
      return found ? { kind, ...found } : empty;
    }
    case "agreement": {
      const found = await agreementLinkPreview(request, branding);
      return found ? { kind, ...found } : empty;
    }
  }
}

export async function action({ request, params }: ActionFunctionArgs) {
  requireSameOrigin(request);
  await requireHostAdminPage(request);
  kindOf(params.kind);
  // The body is not read: whatever was typed, a preview pays, accepts and sends nothing.
  return data({ refused: true as const }, { status: 403 });
}

function kindOf(value: string | undefined): LinkPreviewKind {
  if (!isLinkPreviewKind(value)) throw pageNotFound();
  return value;
}

/** A quote (the pay form's live total) changes nothing the loader reads. */
export const shouldRevalidate = payFormShouldRevalidate;

/** No React (decision 084): the link page as a contact sees it before any script runs (every post is refused here anyway), with the Menu and the session across tabs from `enhance.js`. */
export const handle = ENHANCED_PAGE;

export default function LinkPagePreview() {
  const { kind, running, preview } = useLoaderData<typeof loader>();
  const refused = useActionData<typeof action>();
  const t = useT();
  const pageName = t(`branding.preview.page.${kind}` as MessageKey);
  if (!running || !preview) {
    return (
      <>
        <h1>{t("branding.pagePreview.title", { page: pageName })}</h1>
        <FormMessage kind="notice">{t("branding.preview.notRunning")}</FormMessage>
        <p>
          <Link to="/admin/branding">{t("branding.preview.back")}</Link>
        </p>
      </>
    );
  }
  if (preview.kind === "empty") {
    return (
      <>
        <h1>{t("branding.pagePreview.title", { page: pageName })}</h1>
        <FormMessage kind="notice">{t(`branding.pagePreview.empty.${preview.of}` as MessageKey)}</FormMessage>
      </>
    );
  }
  const source = t(`branding.pagePreview.source.${preview.kind}` as MessageKey, { reference: preview.source });
  // The page first, as contacts get it (its heading where they see it, under the shell's preview
  // banner); what it was built from after it. A refused post is answered where the eyes are.
  return (
    <>
      {refused ? <FormMessage kind="error">{t("branding.pagePreview.refused")}</FormMessage> : null}
      {preview.kind === "request" ? <RequestOpen data={preview.page} reply={null} /> : null}
      {preview.kind === "adhoc" ? <AdhocLinkOpen data={preview.page} reply={null} /> : null}
      {preview.kind === "schedule" ? <ScheduleAcceptance data={preview.page as AcceptanceData} /> : null}
      {preview.kind === "agreement" ? <AgreementPage page={preview.page} /> : null}
      <FormMessage kind="notice">{t("branding.pagePreview.notice", { source })}</FormMessage>
    </>
  );
}

type AgreementPreviewData = Extract<
  NonNullable<ReturnType<typeof useLoaderData<typeof loader>>["preview"]>,
  { kind: "agreement" }
>["page"];

function AgreementPage({ page }: { page: AgreementPreviewData }) {
  if (page.kind === "closed") return <AgreementClosed data={page} />;
  if (page.kind === "record") return <AgreementRecord data={page} />;
  return <AgreementOpen data={page} reply={null} />;
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => {
  const t = metaTranslator(matches);
  if (!data) return [{ title: t("errors.notFound.title") }, metaDescription(matches, "meta.notFound")];
  const page = t(`branding.preview.page.${isLinkPreviewKind(data.kind) ? data.kind : "request"}` as MessageKey);
  return [
    { title: `${t("branding.pagePreview.title", { page })} · ${data.businessName}` },
    metaDescription(matches, "meta.brandingPagePreview", data.businessName),
  ];
};
