import { AdhocPayForm, type AdhocFormData } from "./AdhocPayForm";
import { linkButton } from "~/components/Button.css";
import { BusinessContact } from "~/components/BusinessContact";
import { formStyles } from "~/components/Form";
import { PayIdPanel, type PayIdPanelData } from "~/components/PayIdPanel";
import { useT } from "~/components/useT";
import type { PayFormReply } from "~/lib/pay-form";

export type AdhocLinkOpenData = AdhocFormData & {
  payId: PayIdPanelData | null;
  contact: { email: string | null; phone: string | null };
};

/**
 * An ad-hoc payment link's page while the link opens (issue 14; decision 033): the amount of the
 * payer's choice, a new card, "Sign in to use a saved card" and the account's PayID. The link's
 * route renders it, and so does the brand preview of that page (decision 082).
 */
export function AdhocLinkOpen({ data, reply }: { data: AdhocLinkOpenData; reply: PayFormReply | null }) {
  const t = useT();
  return (
    <>
      <h1>{t("adhoc.title")}</h1>
      <p>{t("adhoc.link.intro", { business: data.businessName })}</p>
      {data.adhoc.enabled ? (
        <AdhocPayForm
          data={data}
          reply={reply}
          afterMethods={
            <>
              <p className={formStyles.hint}>
                <button type="submit" name="intent" value="signIn" className={linkButton}>
                  {t("requestPage.signIn")}
                </button>
              </p>
              {data.payId ? (
                <>
                  <p className={formStyles.hint}>{t("adhoc.payid.note")}</p>
                  <PayIdPanel data={data.payId} />
                </>
              ) : null}
            </>
          }
        />
      ) : (
        <>
          <p>{t("adhoc.off", { business: data.businessName })}</p>
          <BusinessContact businessName={data.businessName} contact={data.contact} />
        </>
      )}
    </>
  );
}
