import * as styles from "./Table.css";
import { useT } from "./useT";

/** "Questions? Contact …": the business's email and phone, where it has them. */
export function BusinessContact({
  businessName,
  contact,
}: {
  businessName: string;
  contact: { email: string | null; phone: string | null };
}) {
  const t = useT();
  if (!contact.email && !contact.phone) return null;
  return (
    <>
      <p>{t("requestPage.contact", { business: businessName })}</p>
      <dl className={styles.details}>
        {contact.email ? (
          <>
            <dt>{t("requestPage.contact.email")}</dt>
            <dd>
              <a href={`mailto:${contact.email}`}>{contact.email}</a>
            </dd>
          </>
        ) : null}
        {contact.phone ? (
          <>
            <dt>{t("requestPage.contact.phone")}</dt>
            <dd>
              <a href={`tel:${contact.phone.replace(/[^\d+]/g, "")}`}>{contact.phone}</a>
            </dd>
          </>
        ) : null}
      </dl>
    </>
  );
}
