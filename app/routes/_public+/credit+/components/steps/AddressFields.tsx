import { AU_STATES } from "~/lib/au-postcodes";
import { useT } from "~/components/useT";
import * as styles from "../Credit.css";
import { CheckField, SelectField, TextField, type StepMessages } from "../CreditForm";
import { field, Group, type StepBodyProps, text, TOO_LONG_100 } from "./shared";

/** The address step's fields: the trading address, and the postal address unless it is the same (hidden by CSS while ticked). */
export const ADDRESS_MESSAGES: StepMessages = {
  line1: text("credit.error.line1.required"),
  suburb: text("credit.error.suburb.required", TOO_LONG_100),
  city: text("credit.error.city.required", TOO_LONG_100),
  state: { required: "credit.error.state.required" },
  postcode: text("credit.error.postcode.required", "credit.error.postcode.invalid"),
};

function Address({
  fields,
  country,
  prefix,
}: {
  fields: StepBodyProps["fields"];
  country: "AU" | "NZ";
  prefix: "" | "postal";
}) {
  const t = useT();
  const name = (base: string) => (prefix ? `${prefix}${base[0]!.toUpperCase()}${base.slice(1)}` : base);
  const auto = (part: string) => `${prefix ? "billing" : "shipping"} ${part}`;
  return (
    <>
      <TextField
        meta={field(fields, name("line1"))}
        label={t(prefix ? "credit.field.postalLine1" : "credit.field.line1")}
        autoComplete={auto("address-line1")}
      />
      <TextField
        meta={field(fields, name("line2"))}
        label={t("credit.field.line2")}
        autoComplete={auto("address-line2")}
      />
      <TextField
        meta={field(fields, name("suburb"))}
        label={t(country === "AU" ? "credit.field.suburb.AU" : "credit.field.suburb.NZ")}
        autoComplete={country === "AU" ? auto("address-level2") : auto("address-level3")}
      />
      {country === "NZ" ? (
        <TextField
          meta={field(fields, name("city"))}
          label={t("credit.field.city")}
          autoComplete={auto("address-level2")}
        />
      ) : (
        <SelectField
          meta={field(fields, name("state"))}
          label={t("credit.field.state")}
          options={AU_STATES.map((value) => ({ value, label: t(`credit.state.${value}`) }))}
          autoComplete={auto("address-level1")}
        />
      )}
      <TextField
        meta={field(fields, name("postcode"))}
        label={t("credit.field.postcode")}
        inputMode="numeric"
        autoComplete={auto("postal-code")}
        className={styles.short}
      />
    </>
  );
}

export function AddressFields({ fields, country }: StepBodyProps) {
  const t = useT();
  return (
    <>
      <Group legend={t("credit.address.trading")}>
        <Address fields={fields} country={country} prefix="" />
      </Group>
      <CheckField meta={field(fields, "postalSame")} label={t("credit.field.postalSame")} />
      <Group legend={t("credit.address.postal")} className={styles.postalFields}>
        <Address fields={fields} country={country} prefix="postal" />
      </Group>
    </>
  );
}
