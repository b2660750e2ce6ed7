import { Link } from "@remix-run/react";
import type { PayFormReply } from "~/lib/pay-form";
import type { RescueData } from "~/lib/schedule-pages";
import { formStyles } from "~/components/Form";
import { PayForm } from "~/components/PayForm/PayForm";
import { useLanguage, useT } from "~/components/useT";
import { ordinalIn } from "~/lib/format";

/**
 * A declined instalment paid another way from its email's link (issue 15; decision 034): the
 * shared pay form with a new card only (never saved; a link payer's way, decision 031), the
 * instalment's amount and the card's surcharge priced by the server, and a way to sign in for
 * the account's saved cards and agreements.
 */
const NEW_CARD_ONLY = {
  cards: [],
  agreements: [],
  payTo: { enabled: false, providerName: "", setUp: null },
  promise: false,
  saveCard: false,
};

export function ScheduleRescue({
  rescue,
  reply,
  businessName,
}: {
  rescue: RescueData;
  reply: PayFormReply | null;
  businessName: string;
}) {
  const t = useT();
  const language = useLanguage();
  return (
    <section aria-labelledby="rescue-title">
      <h2 id="rescue-title">{t("schedules.pay.anotherWay", { seq: ordinalIn(rescue.seq, language) })}</h2>
      <PayForm
        requestGuid={rescue.requestGuid}
        reply={reply}
        breakdown={rescue.breakdown}
        defaultMethod={{ kind: "new" }}
        methods={NEW_CARD_ONLY}
        businessName={businessName}
        note={false}
        subtotalLabel={t("schedules.pay.subtotal")}
        lead={() => t("schedules.pay.anotherWay.lead", { seq: ordinalIn(rescue.seq, language), amount: rescue.amount })}
        amountFields={() => <input type="hidden" name="instalmentId" value={rescue.instalmentId} />}
        afterMethods={
          <p className={formStyles.hint}>
            <Link to={rescue.signInHref}>{t("schedules.pay.signIn")}</Link>
          </p>
        }
      />
    </section>
  );
}
