import { Link } from "@remix-run/react";
import type { MessageKey } from "~/lib/i18n";
import type { AgreementStatus } from "~/lib/payto-states";
import { button } from "~/components/Button.css";
import * as payto from "./PayTo.css";
import * as styles from "~/components/Table.css";
import { useRecheckWhile } from "~/components/useRecheckWhile";
import { useT } from "~/components/useT";

export type AgreementLabelView = { kind: "payid"; payId: string } | { kind: "bban"; bsb: string; number: string };

/** An agreement's name: its PayID, or BSB and masked account number. */
export function useAgreementName() {
  const t = useT();
  return (label: AgreementLabelView) =>
    label.kind === "payid"
      ? t("payto.agreement.name.payid", { payId: label.payId })
      : t("payto.agreement.name.bban", { bsb: label.bsb, number: label.number });
}

/**
 * The PayTo agreements on /payment-methods (issue 13): each with its status in words and what
 * to do next, and the way to set one up. Shown only when the business offers PayTo.
 */
export function PayToAgreements({
  businessName,
  agreements,
}: {
  businessName: string;
  agreements: { id: string; status: AgreementStatus; label: AgreementLabelView }[];
}) {
  const t = useT();
  const nameOf = useAgreementName();
  // An agreement waiting for the payer's bank turns active here too, without a reload (with JS).
  useRecheckWhile(agreements.some((agreement) => agreement.status === "CREATED"));
  return (
    <section aria-labelledby="payto-title">
      <h2 id="payto-title">{t("payto.section.title")}</h2>
      <p>{t("payto.section.intro", { business: businessName })}</p>
      {agreements.length === 0 ? <p>{t("payto.section.none")}</p> : null}
      <ul className={styles.list} aria-label={t("payto.section.title")}>
        {agreements.map((agreement) => {
          const name = nameOf(agreement.label);
          return (
            <li key={agreement.id} className={styles.listItem}>
              <div className={payto.wrap}>
                <strong>{name}</strong>{" "}
                <span className={styles.badge}>{t(`payto.status.${agreement.status}` as MessageKey)}</span>
                <br />
                {t(`payto.next.${agreement.status}` as MessageKey)}
              </div>
              <Link
                to={`/payment-methods/payto/${agreement.id}`}
                aria-label={t("payto.agreement.viewFor", { item: name })}
              >
                {t("payto.agreement.view")}
              </Link>
            </li>
          );
        })}
      </ul>
      <p>
        <Link to="/payment-methods/payto/new" className={button}>
          {t("payto.section.setUp")}
        </Link>
      </p>
    </section>
  );
}
