import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { ScheduleAcceptance } from "./components/PaymentSchedule";
import { metaTranslator, type MessageKey } from "~/lib/i18n";
import { SCHEDULE_PAGE_HANDLE, type AcceptanceData } from "~/lib/schedule-pages";
import { isScheduleReference } from "~/lib/schedule-paths";
import {
  accountNotFound,
  LINK_PAGE_HEADERS,
  requireSameOrigin,
  acceptAction,
  acceptanceByLink,
  acceptanceSignedIn,
  requireSignedInSchedule,
} from "./customer.server";
import { metaDescription } from "~/lib/meta";

/**
 * A proposed payment schedule (spec §2 customer-style `/payment-schedule/acceptance/[...slug]`;
 * issue 15; decision 034), two ways in:
 * - `<token>`, the emailed link: no session needed; the whole review (every instalment, the
 *   total, the fees by way to pay, the retry policy, the authority) and "Sign in to accept",
 *   which leads to the same proposal by its reference after sign-in — never the token. The GET
 *   counts the opening and changes nothing else; the link page has no form that spends anything.
 * - `<reference>` (PS-…), signed in, for a contact who may act for the schedule's account: the
 *   same review and the accept form (a saved card or an active PayTo agreement of this account,
 *   the authority box). Anyone else: "Page not found", in the loader and the action.
 * A proposal already accepted, withdrawn, expired or cancelled says so, with no form.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  if (isScheduleReference(params.slug)) {
    return acceptanceSignedIn(await requireSignedInSchedule(request, params.slug));
  }
  return acceptanceByLink(request, params.slug);
}

export async function action({ request, params }: ActionFunctionArgs) {
  requireSameOrigin(request);
  // A link page takes no POST: accepting binds stored methods, which needs a sign-in.
  if (!isScheduleReference(params.slug)) throw accountNotFound();
  return acceptAction(request, params.slug);
}

/** The token is in the path: no Referer carries it on, no cache keeps the page (decision 031). */
export const headers: HeadersFunction = () => LINK_PAGE_HEADERS;

/** No React but while a declined instalment can be paid with a new card (SCHEDULE_PAGE_HANDLE, decision 084). */
export const handle = SCHEDULE_PAGE_HANDLE;

export default function PaymentScheduleAcceptance() {
  const loaded = useLoaderData<typeof loader>() as AcceptanceData;
  const answered = useActionData<typeof action>();
  return <ScheduleAcceptance data={answered ?? loaded} />;
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => {
  const t = metaTranslator(matches);
  const page = data as AcceptanceData | undefined;
  if (!page || !("kind" in page))
    return [{ title: t("link.invalid.title") }, metaDescription(matches, "meta.linkInvalid")];
  if (page.kind === "closed")
    return [
      { title: `${t(`schedules.closed.${page.reason}.title` as MessageKey)} · ${page.businessName}` },
      metaDescription(matches, "meta.scheduleClosed", page.businessName),
    ];
  return [
    { title: `${t("schedules.accept.title", { reference: page.schedule.reference })} · ${page.businessName}` },
    metaDescription(matches, "meta.scheduleAccept", page.businessName),
  ];
};
