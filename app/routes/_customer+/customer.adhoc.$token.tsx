import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { AdhocLinkOpen } from "./components/AdhocLinkOpen";
import { BusinessContact } from "~/components/BusinessContact";
import { useT } from "~/components/useT";
import { metaTranslator } from "~/lib/i18n";
import { payFormShouldRevalidate } from "~/lib/pay-form";
import {
  getPageContext,
  LINK_PAGE_HEADERS,
  linkInvalid,
  recordLinkOpened,
  rememberLinkInBrowser,
  businessContact,
  adhocPageData,
  checkAdhocLink,
  adhocSignInReturn,
  linkOffer,
  payAdhoc,
  getAccountPayId,
  payToConfigurationOf,
  readForm,
  clientAddress,
  requireSameOrigin,
} from "./customer.server";
import { metaDescription } from "~/lib/meta";
import { hydrateOnlyWhen } from "~/lib/client-runtime";

/**
 * Pay an amount of your choice from an emailed link (spec §2 `/customer/adhoc/[slug]`; issue 14;
 * decisions 031 and 033). No session: the token (purpose `adhoc`, subject the account) stands in
 * for one, for exactly that account, and its contact is the payer of record. The same form as
 * the signed-in page, with a new card only and no "save this card" (a forwarded link must not
 * spend or add to the account's stored methods), and the account's PayID where the business has
 * PayTo. Opening counts and changes nothing else; only the paying POST uses the link, and after
 * it this browser may open the receipt. Any token that does not check out is the one "This link
 * isn't valid" page; an expired or withdrawn link says so, with the business's contact details.
 */
async function linkContext(request: Request, token: string | undefined) {
  const { branding } = await getPageContext(request);
  const check = await checkAdhocLink(branding.businessId, token);
  if (check.status === "unknown") throw linkInvalid();
  return { branding, check };
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { branding, check } = await linkContext(request, params.token);
  await recordLinkOpened(branding.businessId, check.link.id);
  if (check.status !== "valid") {
    return {
      kind: "closed" as const,
      reason: check.status,
      businessName: branding.businessName,
      contact: await businessContact(branding.businessId),
    };
  }
  const account = check.account;
  const settings = branding.adhoc;
  const [payId, contact] = await Promise.all([
    payToConfigurationOf(branding).enabled
      ? getAccountPayId({
          businessId: branding.businessId,
          hostname: branding.hostname,
          accountId: account.accountId,
          accountNumber: account.number,
        })
      : null,
    businessContact(branding.businessId),
  ]);
  return {
    kind: "open" as const,
    ...adhocPageData(branding, account, settings, linkOffer(branding)),
    payId: payId && (payId.status === "ready" || payId.status === "unavailable") ? payId : null,
    contact,
  };
}

export async function action({ request, params }: ActionFunctionArgs) {
  requireSameOrigin(request);
  const { branding, check } = await linkContext(request, params.token);
  // An expired or withdrawn link takes nothing: back to its page, which says why (POST/redirect/GET).
  if (check.status !== "valid") {
    return redirect(new URL(request.url).pathname, { status: 303, headers: LINK_PAGE_HEADERS });
  }
  const form = await readForm(request);
  // "Sign in to use a saved card": a button of the pay form, so the amount and reference typed come
  // along to the signed-in page (decision 077). Nothing is charged and the card fields are not read.
  if (form.get("intent") === "signIn") {
    return redirect(adhocSignInReturn(form, { accountId: check.account.accountId, settings: branding.adhoc }), {
      status: 303,
      headers: LINK_PAGE_HEADERS,
    });
  }
  const result = await payAdhoc(request, form, {
    branding,
    actor: {
      businessId: branding.businessId,
      accountId: check.account.accountId,
      // The contact the link was sent to pays (payments.created_by): the receipt email goes to them.
      contactId: check.link.contactId,
      clientIp: clientAddress(request),
    },
    settings: branding.adhoc,
    offer: linkOffer(branding),
    linkTokenId: check.link.id,
  });
  if (result.kind === "paid") {
    // This browser may now open the receipt of what it paid from this link (decision 031).
    const cookie = await rememberLinkInBrowser(request, check.link, params.token);
    return redirect(`/payment/complete/${encodeURIComponent(result.reference)}`, {
      headers: { ...LINK_PAGE_HEADERS, "Set-Cookie": cookie },
    });
  }
  return data(result.reply, { status: result.status, headers: { ...LINK_PAGE_HEADERS, ...result.headers } });
}

export const headers: HeadersFunction = () => LINK_PAGE_HEADERS;

/** A quote changes nothing the loader reads. */
export const shouldRevalidate = payFormShouldRevalidate;

/** An expired or withdrawn ad-hoc link only says so: no script (decision 049). */
export const handle = hydrateOnlyWhen("open");

export default function AdhocLink() {
  const loaded = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>() ?? null;
  const t = useT();
  if (loaded.kind === "closed") {
    return (
      <>
        <h1>{t(`adhoc.closed.${loaded.reason}.title`)}</h1>
        <p>{t(`adhoc.closed.${loaded.reason}.text`, { business: loaded.businessName })}</p>
        <BusinessContact businessName={loaded.businessName} contact={loaded.contact} />
      </>
    );
  }
  return <AdhocLinkOpen data={loaded} reply={reply} />;
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => {
  const t = metaTranslator(matches);
  if (!data) return [{ title: t("link.invalid.title") }, metaDescription(matches, "meta.linkInvalid")];
  const closed = data.kind === "closed";
  const title = closed ? t(`adhoc.closed.${data.reason}.title`) : t("adhoc.title");
  return [
    { title: `${title} · ${data.businessName}` },
    metaDescription(matches, closed ? "meta.adhocClosed" : "meta.adhoc", data.businessName),
  ];
};
