import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { ScheduleClosed, ScheduleProgress } from "../components/PaymentSchedule";
import { ScheduleRescue } from "../components/ScheduleRescue";
import { payFormShouldRevalidate } from "~/lib/pay-form";
import { metaTranslator, type MessageKey } from "~/lib/i18n";
import { SCHEDULE_PAGE_HANDLE, type ClosedData, type ProgressData } from "~/lib/schedule-pages";
import { isScheduleReference } from "~/lib/schedule-paths";
import {
  LINK_PAGE_HEADERS,
  recordLinkOpened,
  readForm,
  requireSameOrigin,
  changeAction,
  payAction,
  progressByLink,
  progressSignedIn,
  requireSignedInSchedule,
  rescueAction,
} from "./payment-schedule.server";
import { metaDescription } from "~/lib/meta";

/**
 * One payment schedule's progress (spec §2 customer-style `/customer/payment-schedule/[...slug]`;
 * issue 15; decision 034), two ways in:
 * - `<reference>` (PS-…), signed in, for a contact who may act for the account: what is paid and
 *   left, every instalment (paid, processing, due, retrying with its next try, failed, upcoming,
 *   cancelled), the way to pay with "Change", and "Pay the next instalment now".
 * - `<token>`, the link in a declined instalment's email: the same progress, and the declined
 *   instalment to pay another way with a new card (never saved; decision 031's link payer).
 * Another account's or business's reference is "Page not found"; a token that does not check out
 * is "This link isn't valid"; one that no longer opens says only why.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  if (isScheduleReference(params.slug)) {
    return progressSignedIn(request, await requireSignedInSchedule(request, params.slug));
  }
  const { page, access } = await progressByLink(request, params.slug);
  await recordLinkOpened(access.link.businessId, access.link.id);
  return page;
}

export async function action({ request, params }: ActionFunctionArgs) {
  requireSameOrigin(request);
  // By link: only the declined instalment's new-card payment (quote, "Update total", pay).
  if (!isScheduleReference(params.slug)) return rescueAction(request, params.slug);
  const context = await requireSignedInSchedule(request, params.slug);
  const form = await readForm(request);
  switch (form.get("intent")) {
    case "change":
      return changeAction(request, context, form);
    case "pay":
      return payAction(request, context, form);
    default:
      return data(await progressSignedIn(request, context, { refusal: "method" }), { status: 400 });
  }
}

/** The token is in the path: no Referer carries it on, no cache keeps the page (decision 031). */
export const headers: HeadersFunction = () => LINK_PAGE_HEADERS;

/** A quote changes nothing the loader reads. */
export const shouldRevalidate = payFormShouldRevalidate;

/** No React but while a declined instalment can be paid with a new card (SCHEDULE_PAGE_HANDLE, decision 084). */
export const handle = SCHEDULE_PAGE_HANDLE;

export default function PaymentScheduleProgress() {
  const loaded = useLoaderData<typeof loader>() as ProgressData | ClosedData;
  const answered = useActionData<typeof action>();
  // Signed in, an action answers with the page; by link, with the pay form's reply.
  const reply = answered && !("kind" in answered) ? answered : null;
  const page = answered && "kind" in answered ? answered : loaded;
  if (page.kind === "closed") return <ScheduleClosed data={page} />;
  return (
    <ScheduleProgress
      data={page}
      payAnotherWay={
        page.rescue ? <ScheduleRescue rescue={page.rescue} reply={reply} businessName={page.businessName} /> : null
      }
    />
  );
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => {
  const t = metaTranslator(matches);
  const page = data as ProgressData | ClosedData | undefined;
  if (!page || !("kind" in page))
    return [{ title: t("link.invalid.title") }, metaDescription(matches, "meta.linkInvalid")];
  if (page.kind === "closed")
    return [
      { title: `${t(`schedules.closed.${page.reason}.title` as MessageKey)} · ${page.businessName}` },
      metaDescription(matches, "meta.scheduleClosed", page.businessName),
    ];
  return [
    { title: `${t("schedules.progress.title", { reference: page.schedule.reference })} · ${page.businessName}` },
    metaDescription(matches, "meta.scheduleProgress", page.businessName),
  ];
};
