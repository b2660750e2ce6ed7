import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { BrandingChanges } from "./components/BrandingChanges";
import { BrandingEmailPreviews } from "./components/BrandingEmailPreviews";
import * as styles from "./components/Branding.css";
import * as buttons from "~/components/Button.css";
import { FormMessage, formStyles } from "~/components/Form";
import { useT } from "~/components/useT";
import { isPreviewPage, PREVIEW_PAGES, type PreviewPage } from "~/lib/brand-preview";
import { metaTranslator, type MessageKey } from "~/lib/i18n";
import {
  brandAdminView,
  requireHostAdminPage,
  startBrandPreview,
  stopBrandPreview,
  readForm,
  requestOrigin,
  requireSameOrigin,
} from "./branding.server";
import { metaDescription } from "~/lib/meta";
import { ENHANCED_PAGE } from "~/lib/client-runtime";

/**
 * /admin/branding/preview (issue 16): the draft on the real pages customers get (sign-in,
 * dashboard, invoices, pay), each in same-origin frames at phone (360 px) and desktop (1280 px)
 * width, with JavaScript on and off (a frame sandboxed without `allow-scripts` runs none). The
 * draft is chosen by this admin's session, never by the address: the frames' responses are
 * `private, no-store` and no one else's. A link another admin of the business can open, and
 * "Stop preview".
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const { branding } = await requireHostAdminPage(request);
  const url = new URL(request.url);
  const requested = url.searchParams.get("page");
  const page: PreviewPage = isPreviewPage(requested) ? requested : "signin";
  const versionId = branding.preview?.versionId ?? null;
  // The draft being previewed can be published from here, with what it changes (issue 32); with no
  // preview running, a saved draft can be previewed from here in one tap.
  const view = await brandAdminView(request, branding);
  const draft = view.draft && view.draft.versionId === versionId ? view.draft : null;
  return {
    publish: draft && view.changes.length > 0 ? { draftId: draft.versionId!, changes: view.changes } : null,
    draftToStart: versionId === null ? (view.draft?.versionId ?? null) : null,
    page,
    src: PREVIEW_PAGES[page],
    versionId,
    shareUrl: versionId ? `${requestOrigin(request)}/admin/branding/preview/${versionId}` : null,
    businessName: branding.businessName,
  };
}

export async function action({ request }: ActionFunctionArgs) {
  requireSameOrigin(request);
  const { session } = await requireHostAdminPage(request);
  const form = await readForm(request);
  const intent = form.get("intent");
  if (intent === "stop") {
    await stopBrandPreview(session);
    return redirect("/admin/branding?done=stopped");
  }
  if (intent === "start") {
    const versionId = form.get("versionId");
    const started = await startBrandPreview(session, versionId);
    if (!started) return data({ formError: "branding.error.preview" as MessageKey }, { status: 404 });
    return redirect("/admin/branding/preview");
  }
  return data({ formError: "branding.error.intent" as MessageKey }, { status: 400 });
}

const FRAMES = [
  { width: 360, js: true },
  { width: 360, js: false },
  { width: 1280, js: true },
  { width: 1280, js: false },
] as const;

/** No React (decision 084): forms that post and a frame, with the Menu and the session across tabs from `enhance.js`. */
export const handle = ENHANCED_PAGE;

export default function BrandingPreview() {
  const { page, src, versionId, shareUrl, publish, draftToStart } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const t = useT();
  const pageName = t(`branding.preview.page.${page}` as MessageKey);
  return (
    <>
      <h1>{t("branding.preview.heading")}</h1>
      <p>
        <Link to="/admin/branding">{t("branding.preview.back")}</Link>
      </p>
      {actionData?.formError ? <FormMessage kind="error">{t(actionData.formError)}</FormMessage> : null}
      {versionId === null ? (
        draftToStart ? (
          <>
            <FormMessage kind="notice">{t("branding.preview.notRunningDraft")}</FormMessage>
            <Form method="post">
              <input type="hidden" name="versionId" value={draftToStart} />
              <button type="submit" name="intent" value="start" className={buttons.button}>
                {t("branding.preview.start")}
              </button>
            </Form>
          </>
        ) : (
          <FormMessage kind="notice">{t("branding.preview.noDraft")}</FormMessage>
        )
      ) : (
        <>
          <p>{t("branding.preview.explain")}</p>
          <Form method="get" className={styles.pagePicker}>
            <div className={formStyles.field}>
              <label className={formStyles.label} htmlFor="preview-page">
                {t("branding.preview.pageLabel")}
              </label>
              <select id="preview-page" name="page" defaultValue={page} className={formStyles.input}>
                {(Object.keys(PREVIEW_PAGES) as PreviewPage[]).map((name) => (
                  <option key={name} value={name}>
                    {t(`branding.preview.page.${name}` as MessageKey)}
                  </option>
                ))}
              </select>
            </div>
            <button type="submit" className={buttons.secondaryButton}>
              {t("branding.preview.show")}
            </button>
          </Form>
          {/* Each frame is keyed by its page too: another page is a new frame, not this one navigated,
              so a frame's script is never cut off in the middle of a request it began (decision 082). */}
          <div className={styles.frames}>
            <div className={styles.frameGroup}>
              {FRAMES.filter((frame) => frame.width === 360).map((frame, index) => (
                <PreviewFrame
                  key={`${frame.width}-${frame.js}-${src}`}
                  src={src}
                  pageName={pageName}
                  eager={index === 0}
                  {...frame}
                />
              ))}
            </div>
            <div className={styles.frameGroup}>
              {FRAMES.filter((frame) => frame.width === 1280).map((frame) => (
                <PreviewFrame
                  key={`${frame.width}-${frame.js}-${src}`}
                  src={src}
                  pageName={pageName}
                  eager={false}
                  {...frame}
                />
              ))}
            </div>
          </div>
          <BrandingEmailPreviews />
          {publish ? (
            <section className={styles.section} aria-labelledby="brand-publish">
              <h2 id="brand-publish">{t("branding.publish.title")}</h2>
              <p>{t("branding.publish.intro")}</p>
              <BrandingChanges changes={publish.changes} />
              <Form method="post" action="/admin/branding">
                <input type="hidden" name="draftId" value={publish.draftId} />
                <button type="submit" name="intent" value="publish" className={buttons.button}>
                  {t("branding.publish.submit")}
                </button>
              </Form>
            </section>
          ) : null}
          <h2>{t("branding.preview.shareTitle")}</h2>
          <p>{t("branding.preview.shareIntro")}</p>
          <p className={styles.shareLink}>
            <a href={shareUrl ?? ""}>{shareUrl}</a>
          </p>
          <Form method="post">
            <button type="submit" name="intent" value="stop" className={buttons.secondaryButton}>
              {t("branding.preview.stop")}
            </button>
          </Form>
        </>
      )}
    </>
  );
}

/** `eager`: the first frame, in the first screen; the rest load as they come near (spec §9; decision 094). */
function PreviewFrame({
  src,
  pageName,
  width,
  js,
  eager,
}: {
  src: string;
  pageName: string;
  width: 360 | 1280;
  js: boolean;
  eager: boolean;
}) {
  const t = useT();
  const caption = t(js ? "branding.preview.frameJs" : "branding.preview.frameNoJs", { width });
  return (
    <figure className={styles.frameFigure}>
      <figcaption className={styles.frameCaption}>{caption}</figcaption>
      <div className={width === 360 ? styles.phoneBox : styles.desktopBox}>
        <iframe
          src={src}
          title={t("branding.preview.frameTitle", { page: pageName, caption })}
          className={width === 360 ? styles.phoneFrame : styles.desktopFrame}
          width={width}
          height={width === 360 ? 740 : 800}
          loading={eager ? "eager" : "lazy"}
          // No allow-scripts: the page inside runs as in a browser with JavaScript off. Same
          // origin, so it is this admin's session (and so the draft) that renders it.
          sandbox={js ? undefined : "allow-same-origin"}
          data-js={js ? "on" : "off"}
          data-width={width}
        />
      </div>
    </figure>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => {
  const t = metaTranslator(matches);
  if (!data) return [{ title: t("errors.notFound.title") }, metaDescription(matches, "meta.notFound")];
  return [
    { title: `${t("branding.preview.heading")} · ${data.businessName}` },
    metaDescription(matches, "meta.brandingPreview", data.businessName),
  ];
};
