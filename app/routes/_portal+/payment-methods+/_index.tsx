import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { button, secondaryButton } from "~/components/Button.css";
import { FormMessage, formStyles } from "~/components/Form";
import * as styles from "~/components/Table.css";
import { useT } from "~/components/useT";
import { formatRouting, maskAccountNumber } from "~/lib/bank-account";
import { BRAND_LABELS, formatExpiry, isExpired } from "~/lib/card";
import { maskCardNumber } from "~/lib/format";
import { todayIso } from "~/lib/payment-method-schemas";
import {
  readForm,
  accountNotFound,
  listBankAccounts,
  listCards,
  setDefaultCard,
  PAYMENT_METHOD_NOTICES,
  requirePaymentMethodsPage,
  type PaymentMethodNotice,
  requireSameOrigin,
  payToSection,
} from "./payment-methods.server";
import { metaTranslator } from "~/lib/i18n";
import { PayToAgreements } from "./components/PayToAgreements";
import { metaDescription } from "~/lib/meta";
import type { HydrateHandle } from "~/lib/client-runtime";

/**
 * The selected account's saved cards and bank accounts (issue 5): masked, expired cards
 * marked, the default card first. Changes are plain forms and links, so every one works
 * without JavaScript; each ends on this page with a notice (POST, redirect, GET).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const { branding, account, actor } = await requirePaymentMethodsPage(request);
  const [cards, bankAccounts, payTo] = await Promise.all([
    listCards(actor),
    listBankAccounts(actor),
    payToSection(actor, branding),
  ]);
  // Card expiry is judged on the system's date, as the gateway and the API judge it (test-clock.server.ts).
  const today = todayIso();
  const notice = new URL(request.url).searchParams.get("notice");
  return {
    businessName: branding.businessName,
    accountName: account.name,
    // Own keys only: ?notice=__proto__ must not reach an inherited property.
    notice:
      notice && Object.hasOwn(PAYMENT_METHOD_NOTICES, notice)
        ? PAYMENT_METHOD_NOTICES[notice as PaymentMethodNotice]
        : null,
    cards: cards.map((card) => ({
      id: card.cardId,
      brand: BRAND_LABELS[card.brand],
      last4: card.last4,
      masked: maskCardNumber({ firstDigit: card.firstDigit, lastFour: card.last4 }),
      expiry: formatExpiry(card.expiryMonth, card.expiryYear),
      expired: isExpired(card.expiryMonth, card.expiryYear, today),
      holder: card.holderName,
      isDefault: card.isDefault,
    })),
    bankAccounts: bankAccounts.map((bank) => ({
      id: bank.bankAccountId,
      country: bank.country,
      name: bank.accountName,
      routing: formatRouting(bank.country, bank.routing),
      number: maskAccountNumber(bank.accountNumber),
      description: bank.description,
    })),
    payTo,
  };
}

export async function action({ request }: ActionFunctionArgs) {
  requireSameOrigin(request);
  const { actor } = await requirePaymentMethodsPage(request);
  const form = await readForm(request);
  const intent = form.get("intent");
  if (intent !== "default") throw new Response("Unknown action", { status: 400 });
  if (!(await setDefaultCard(actor, form.get("cardId")))) throw accountNotFound();
  return redirect("/payment-methods?notice=default-set");
}

/**
 * No React here (decision 084), except while a PayTo agreement waits for the payer's bank: then the
 * page rechecks by itself and shows it active without a reload, which HTML cannot do (without
 * JavaScript it offers "Check again").
 */
export const handle: HydrateHandle = {
  hydrate: (data) =>
    Boolean(
      (data as { payTo?: { agreements?: { status: string }[] } | null } | null)?.payTo?.agreements?.some(
        (agreement) => agreement.status === "CREATED",
      ),
    ),
  enhance: true,
};

export default function PaymentMethods() {
  const { businessName, accountName, notice, cards, bankAccounts, payTo } = useLoaderData<typeof loader>();
  const t = useT();
  return (
    <>
      <h1>{t("pm.title")}</h1>
      <p>{t("pm.intro", { account: accountName })}</p>
      {notice ? <FormMessage kind="notice">{t(notice)}</FormMessage> : null}

      <h2>{t("pm.cards.title")}</h2>
      {cards.length === 0 ? <p>{t("pm.cards.none")}</p> : null}
      <ul className={styles.list} aria-label={t("pm.cards.title")}>
        {cards.map((card) => {
          const name = t("pm.card.name", { brand: card.brand, last4: card.last4 });
          return (
            <li key={card.id} className={styles.listItem}>
              <div>
                <strong>{name}</strong>{" "}
                {card.isDefault ? <span className={styles.badge}>{t("pm.card.default")}</span> : null}
                <br />
                <span aria-hidden="true">{card.masked} · </span>
                {card.expired ? (
                  <strong className={formStyles.error}>{t("pm.card.expired", { expiry: card.expiry })}</strong>
                ) : (
                  t("pm.card.expires", { expiry: card.expiry })
                )}
                <br />
                {t("pm.card.holder", { name: card.holder })}
              </div>
              <div className={formStyles.actions}>
                {card.isDefault ? null : (
                  <Form method="post">
                    <input type="hidden" name="intent" value="default" />
                    <input type="hidden" name="cardId" value={card.id} />
                    <button
                      type="submit"
                      className={secondaryButton}
                      aria-label={t("pm.card.makeDefaultFor", { card: name })}
                    >
                      {t("pm.card.makeDefault")}
                    </button>
                  </Form>
                )}
                <Link to={`/payment-methods/cards/${card.id}`} aria-label={t("pm.editFor", { item: name })}>
                  {t("pm.edit")}
                </Link>
                <Link to={`/payment-methods/cards/${card.id}/remove`} aria-label={t("pm.removeFor", { item: name })}>
                  {t("pm.remove")}
                </Link>
              </div>
            </li>
          );
        })}
      </ul>
      <p>
        <Link to="/payment-methods/cards/new" className={button}>
          {t("pm.cards.add")}
        </Link>
      </p>

      <h2>{t("pm.bank.title")}</h2>
      {bankAccounts.length === 0 ? <p>{t("pm.bank.none")}</p> : null}
      <ul className={styles.list} aria-label={t("pm.bank.title")}>
        {bankAccounts.map((bank) => {
          const name = t("pm.bank.name", { name: bank.name, number: bank.number });
          return (
            <li key={bank.id} className={styles.listItem}>
              <div>
                <strong>{name}</strong>
                <br />
                {bank.country === "AU"
                  ? t("pm.bank.bsb", { bsb: bank.routing })
                  : t("pm.bank.nzRouting", { routing: bank.routing })}
                {bank.description ? (
                  <>
                    <br />
                    {bank.description}
                  </>
                ) : null}
              </div>
              <Link
                to={`/payment-methods/bank-accounts/${bank.id}/remove`}
                aria-label={t("pm.removeFor", { item: name })}
              >
                {t("pm.remove")}
              </Link>
            </li>
          );
        })}
      </ul>
      <p>
        <Link to="/payment-methods/bank-accounts/new" className={button}>
          {t("pm.bank.add")}
        </Link>
      </p>

      {payTo ? <PayToAgreements businessName={businessName} agreements={payTo.agreements} /> : null}
    </>
  );
}

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => {
  const t = metaTranslator(matches);
  if (!data) return [{ title: t("errors.notFound.title") }, metaDescription(matches, "meta.notFound")];
  return [
    { title: `${t("pm.title")} · ${data.businessName}` },
    metaDescription(matches, "meta.paymentMethods", data.businessName),
  ];
};
