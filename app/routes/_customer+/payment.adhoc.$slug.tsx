import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { AdhocPayForm } from "./components/AdhocPayForm";
import { useT } from "~/components/useT";
import { metaTranslator } from "~/lib/i18n";
import { payFormShouldRevalidate } from "~/lib/pay-form";
import { amountPageChoiceOf, payToSetUpPath } from "~/lib/pay-return";
import {
  hasPortalAccess,
  requirePageAccess,
  adhocPageData,
  adhocPayToReturn,
  payAdhoc,
  requireAdhocAccount,
  signedInOffer,
  readForm,
  clientAddress,
  requireSameOrigin,
  updateSessionData,
} from "./customer.server";
import { metaDescription } from "~/lib/meta";

/**
 * Pay an amount of your choice into an account (issue 14, spec §2 /payment/adhoc/[slug],
 * customer-style; decision 033). The slug is the account's id; a contact who may not see that
 * account (another account's or business's id, anything malformed) gets "Page not found", in the
 * loader and the action. The amount is any the business allows (its minimum and maximum are
 * shown), the payer types a reference the statement shows, and pays by a saved card, a new card
 * (saved only by contacts who may manage payment methods) or an active PayTo agreement. The money
 * is credit on the account; the receipt is /payment/complete/<reference>, and it is emailed.
 * Where the business does not take such payments, the page says so and shows no form.
 * "Set up PayTo" comes back here with the amount and reference typed and the new agreement chosen
 * (`?amount=<cents>&reference=…&agreement=<id>`; decision 077).
 */
async function pageContext(request: Request, slug: string | undefined) {
  const { branding, session } = await requirePageAccess(request);
  const contact = session!.contact;
  const account = await requireAdhocAccount(branding.businessId, contact.id, slug);
  const actor = {
    businessId: branding.businessId,
    accountId: account.accountId,
    contactId: contact.id,
    clientIp: clientAddress(request),
  };
  const settings = branding.adhoc;
  // Saving a card is managing the account's payment methods, which needs portal access (decision 023).
  const offer = await signedInOffer(branding, actor, hasPortalAccess(contact));
  // The payment-methods pages act on the selected account: "Set up PayTo" selects this one.
  const selectAccount = async () => {
    if (session!.data.selectedAccount === account.accountId) return;
    await updateSessionData(session!, { selectedAccount: account.accountId, invoicePagination: undefined });
  };
  return { branding, account, actor, settings, offer, selectAccount };
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { branding, account, settings, offer } = await pageContext(request, params.slug);
  // What was typed before "Set up PayTo", and the agreement set up (decision 077): well formed
  // here, then checked against the business's limits and the account's agreements.
  const chosen = amountPageChoiceOf(new URL(request.url).searchParams, true)!;
  return adhocPageData(branding, account, settings, offer, chosen);
}

export async function action({ request, params }: ActionFunctionArgs) {
  requireSameOrigin(request);
  const context = await pageContext(request, params.slug);
  const form = await readForm(request);
  if (form.get("intent") === "setUpPayTo") {
    // To the set-up with the way back here and what was typed (never the card fields; nothing charged).
    const back = adhocPayToReturn(form, {
      accountId: context.account.accountId,
      settings: context.settings,
      offer: context.offer,
    });
    if (back) {
      await context.selectAccount();
      return redirect(payToSetUpPath(back));
    }
    // Not offered to this contact or here: `payAdhoc` answers an intent it does not know with a 400.
  }
  const result = await payAdhoc(request, form, context);
  if (result.kind === "paid") return redirect(`/payment/complete/${encodeURIComponent(result.reference)}`);
  return data(result.reply, { status: result.status, headers: result.headers });
}

/** A quote changes nothing the loader reads: no reload of the page's data for it. */
export const shouldRevalidate = payFormShouldRevalidate;

export default function AdhocPayment() {
  const loaded = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>() ?? null;
  const t = useT();
  return (
    <>
      <h1>{t("adhoc.title")}</h1>
      {loaded.adhoc.enabled ? (
        <AdhocPayForm data={loaded} reply={reply} />
      ) : (
        <>
          <p>{t("adhoc.off", { business: loaded.businessName })}</p>
          <p>
            <Link to="/">{t("adhoc.backHome")}</Link>
          </p>
        </>
      )}
    </>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => {
  const t = metaTranslator(matches);
  if (!data) return [{ title: t("errors.notFound.title") }, metaDescription(matches, "meta.notFound")];
  return [
    { title: `${t("adhoc.title")} · ${data.businessName}` },
    metaDescription(matches, "meta.adhoc", data.businessName),
  ];
};
