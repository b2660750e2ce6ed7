import { Link } from "@remix-run/react";
import { button } from "~/components/Button.css";
import * as styles from "~/components/Table.css";
import { useT } from "~/components/useT";

/**
 * The customer-style home's agreements (issue 15; decisions 033 and 036): the newest offers
 * addressed to the contact, each with its state, opening its acceptance page while it waits and
 * its record once decided, and the way to all of them. One waiting for a decision carries the
 * home's primary action, "Review and accept" (decision 073).
 */
export type HomeAgreementItem = {
  reference: string;
  title: string;
  account: string;
  state: "offered" | "accepted" | "declined" | "withdrawn" | "expired";
  href: string;
};

export function HomeAgreements({ businessName, items }: { businessName: string; items: HomeAgreementItem[] }) {
  const t = useT();
  return (
    <section aria-labelledby="home-agreements">
      <h2 id="home-agreements">{t("home.agreements")}</h2>
      {items.length === 0 ? (
        <p>{t("home.agreements.none", { business: businessName })}</p>
      ) : (
        <>
          <ul className={styles.list} aria-label={t("home.agreements.list")}>
            {items.map((item) => (
              <li key={item.reference} className={styles.listItem}>
                <Link to={item.href} className={styles.pagerLink}>
                  {t("home.agreements.item", { title: item.title, account: item.account })}
                </Link>
                <span className={styles.badge}>{t(`agreements.state.${item.state}`)}</span>
                {item.state === "offered" ? (
                  <Link
                    to={item.href}
                    className={button}
                    aria-label={t("home.agreements.acceptLabel", { title: item.title })}
                  >
                    {t("home.agreements.accept")}
                  </Link>
                ) : null}
              </li>
            ))}
          </ul>
          <p>
            <Link to="/customer/agreement/all">{t("home.agreements.all")}</Link>
          </p>
        </>
      )}
    </section>
  );
}
