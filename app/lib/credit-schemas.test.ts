import { parseWithZod } from "@conform-to/zod";
import { describe, expect, it } from "vitest";
import {
  addressSchema,
  bankSchema,
  businessSchema,
  contactsSchema,
  creditSchema,
  directorsSchema,
  phoneOk,
  refereeProblems,
  referencesSchema,
  stepFormValues,
  stepSchema,
} from "./credit-schemas";
import type { CreditAnswers } from "./credit-steps";

/**
 * The credit application's step schemas (decision 038) as the server runs them: on form data,
 * through conform, exactly as a browser posts it. A valid answer comes out in the stored shape;
 * a wrong one names the field and the message key; markup is text.
 */
function form(fields: Record<string, string | string[]>) {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    for (const one of Array.isArray(value) ? value : [value]) data.append(name, one);
  }
  return data;
}

function parse(schema: Parameters<typeof parseWithZod>[1]["schema"], fields: Record<string, string | string[]>) {
  return parseWithZod(form(fields), { schema });
}

function errorsOf(schema: Parameters<typeof parseWithZod>[1]["schema"], fields: Record<string, string | string[]>) {
  const submission = parse(schema, fields);
  if (submission.status !== "error") throw new Error(`expected errors, got ${submission.status}`);
  const errors: Record<string, string[] | null> = submission.error ?? {};
  return Object.fromEntries(Object.entries(errors).map(([name, messages]) => [name, messages?.[0]]));
}

function valueOf(schema: Parameters<typeof parseWithZod>[1]["schema"], fields: Record<string, string | string[]>) {
  const submission = parse(schema, fields);
  if (submission.status !== "success") throw new Error(`expected success, got ${JSON.stringify(submission.error)}`);
  return submission.value;
}

describe("the business (Australia)", () => {
  const schema = businessSchema("AU");

  it("stores a company's ACN and ABN as bare digits, and markup as text", () => {
    expect(
      valueOf(schema, {
        legalName: "  Coastal <b>Plumbing</b> Pty Ltd ",
        entityType: "company",
        acn: "004 028 077",
        abn: "49 004 028 077",
      }),
    ).toEqual({
      legalName: "Coastal <b>Plumbing</b> Pty Ltd",
      tradingName: null,
      entityType: "company",
      abn: "49004028077",
      acn: "004028077",
      nzbn: null,
    });
  });

  it("needs the ACN of a company and the ABN of anyone else", () => {
    expect(errorsOf(schema, { legalName: "A", entityType: "company" })).toEqual({ acn: "credit.error.acn.required" });
    expect(errorsOf(schema, { legalName: "A", entityType: "sole-trader" })).toEqual({
      abn: "credit.error.abn.required",
    });
    expect(valueOf(schema, { legalName: "A", entityType: "sole-trader", abn: "51824753556" })).toMatchObject({
      abn: "51824753556",
      acn: null,
    });
  });

  it("says which check a number failed", () => {
    expect(errorsOf(schema, { legalName: "A", entityType: "trust", abn: "51 824 753 557", acn: "12" })).toEqual({
      abn: "credit.error.abn.checksum",
      acn: "credit.error.acn.length",
    });
    expect(errorsOf(schema, { legalName: "A", entityType: "partnership", abn: "ABN 51" })).toEqual({
      abn: "credit.error.abn.characters",
    });
  });

  it("keeps an NZBN out of an Australian application", () => {
    expect(
      valueOf(schema, { legalName: "A", entityType: "company", acn: "004028077", nzbn: "9429041535134" }).nzbn,
    ).toBeNull();
  });

  it.each([
    [{ entityType: "company", acn: "004028077" }, { legalName: "credit.error.legalName.required" }],
    [{ legalName: "   ", entityType: "company", acn: "004028077" }, { legalName: "credit.error.legalName.required" }],
    [
      { legalName: "x".repeat(201), entityType: "company", acn: "004028077" },
      { legalName: "credit.error.tooLong.200" },
    ],
    [
      { legalName: "Tab\there", entityType: "company", acn: "004028077" },
      { legalName: "credit.error.text.characters" },
    ],
    [
      { legalName: "Evil\u202eCo", entityType: "company", acn: "004028077" },
      { legalName: "credit.error.text.characters" },
    ],
    [{ legalName: "A", entityType: "llc" }, { entityType: "credit.error.entityType.required" }],
    [{ legalName: "A" }, { entityType: "credit.error.entityType.required" }],
  ])("refuses %j", (fields, errors) => {
    expect(errorsOf(schema, fields)).toEqual(errors);
  });
});

describe("the business (New Zealand)", () => {
  const schema = businessSchema("NZ");

  it("needs a company's NZBN, and takes another's when given", () => {
    expect(errorsOf(schema, { legalName: "Orchards Ltd", entityType: "company" })).toEqual({
      nzbn: "credit.error.nzbn.required",
    });
    expect(valueOf(schema, { legalName: "Sole", entityType: "sole-trader" }).nzbn).toBeNull();
    expect(
      valueOf(schema, { legalName: "Orchards Ltd", entityType: "company", nzbn: "9429041535134", abn: "51824753556" }),
    ).toEqual({
      legalName: "Orchards Ltd",
      tradingName: null,
      entityType: "company",
      abn: null,
      acn: null,
      nzbn: "9429041535134",
    });
    expect(errorsOf(schema, { legalName: "A", entityType: "company", nzbn: "9329041535134" })).toEqual({
      nzbn: "credit.error.nzbn.prefix",
    });
  });
});

describe("the address", () => {
  const au = addressSchema("AU");
  const nz = addressSchema("NZ");
  const trading = { line1: "12 Harbour St", suburb: "Sydney", state: "NSW", postcode: "2000" };

  it("stores the trading address, and no postal one when it is the same", () => {
    expect(valueOf(au, { ...trading, postalSame: "on" })).toEqual({
      trading: { line1: "12 Harbour St", line2: null, suburb: "Sydney", city: null, state: "NSW", postcode: "2000" },
      postal: null,
    });
  });

  it("checks the postal address only when it differs", () => {
    expect(errorsOf(au, { ...trading })).toEqual({
      postalLine1: "credit.error.postalLine1.required",
      postalSuburb: "credit.error.suburb.required",
      postalState: "credit.error.state.required",
      postalPostcode: "credit.error.postcode.required",
    });
    const value = valueOf(au, {
      ...trading,
      postalLine1: "PO Box 12",
      postalSuburb: "Sydney",
      postalState: "NSW",
      postalPostcode: "2001",
    });
    expect(value.postal).toEqual({
      line1: "PO Box 12",
      line2: null,
      suburb: "Sydney",
      city: null,
      state: "NSW",
      postcode: "2001",
    });
  });

  it("refuses a postcode of another state, or not of four digits", () => {
    expect(errorsOf(au, { ...trading, state: "VIC", postalSame: "on" })).toEqual({
      postcode: "credit.error.postcode.state",
    });
    expect(errorsOf(au, { ...trading, postcode: "200", postalSame: "on" })).toEqual({
      postcode: "credit.error.postcode.invalid",
    });
    expect(errorsOf(au, { ...trading, state: "XX", postalSame: "on" })).toEqual({
      state: "credit.error.state.required",
    });
  });

  it("takes a New Zealand address: town or city, no state", () => {
    expect(
      valueOf(nz, { line1: "5 Orchard Rd", city: "Hastings", postcode: "4120", state: "NSW", postalSame: "on" }),
    ).toEqual({
      trading: { line1: "5 Orchard Rd", line2: null, suburb: null, city: "Hastings", state: null, postcode: "4120" },
      postal: null,
    });
    expect(errorsOf(nz, { line1: "5 Orchard Rd", postcode: "4120", postalSame: "on" })).toEqual({
      city: "credit.error.city.required",
    });
  });
});

describe("the contacts", () => {
  const applicant = {
    applicantName: "Olivia Nguyen",
    applicantPosition: "Director",
    applicantEmail: "olivia@coastal.example",
    applicantPhone: "02 9876 5432",
  };

  it("copies the applicant as the accounts payable contact when they say so", () => {
    expect(valueOf(contactsSchema, { ...applicant, apIsApplicant: "on", apName: "ignored" })).toEqual({
      applicant: {
        name: "Olivia Nguyen",
        position: "Director",
        email: "olivia@coastal.example",
        phone: "02 9876 5432",
      },
      accountsPayable: { name: "Olivia Nguyen", email: "olivia@coastal.example", phone: "02 9876 5432" },
      accountsPayableIsApplicant: true,
    });
  });

  it("needs the accounts payable contact otherwise", () => {
    expect(errorsOf(contactsSchema, applicant)).toEqual({
      apName: "credit.error.apName.required",
      apEmail: "credit.error.apEmail.required",
      apPhone: "credit.error.apPhone.required",
    });
    expect(errorsOf(contactsSchema, { ...applicant, apName: "Sam", apEmail: "not-an-email", apPhone: "123" })).toEqual({
      apEmail: "credit.error.email.invalid",
      apPhone: "credit.error.phone.invalid",
    });
  });

  it("checks emails and phone numbers", () => {
    expect(errorsOf(contactsSchema, { ...applicant, applicantEmail: "olivia@", apIsApplicant: "on" })).toEqual({
      applicantEmail: "credit.error.email.invalid",
    });
    expect(phoneOk("+64 9 123 4567")).toBe(true);
    expect(phoneOk("(02) 9876-5432")).toBe(true);
    expect(phoneOk("1234567")).toBe(false);
    expect(phoneOk("1234567890123456")).toBe(false);
    expect(phoneOk("02 9876 5432 ext 5")).toBe(false);
    expect(phoneOk("<b>0298765432</b>")).toBe(false);
  });
});

describe("directors and owners", () => {
  it("takes one to six people with a role each", () => {
    expect(valueOf(directorsSchema, { "people[0].name": "Olivia Nguyen", "people[0].role": "director" })).toEqual({
      people: [{ name: "Olivia Nguyen", role: "director" }],
    });
    const seven = Object.fromEntries(
      Array.from({ length: 7 }, (_, i) => [
        [`people[${i}].name`, `P${i}`],
        [`people[${i}].role`, "owner"],
      ]).flat(),
    );
    expect(errorsOf(directorsSchema, seven)).toEqual({ people: "credit.error.people.tooMany" });
    expect(errorsOf(directorsSchema, {})).toEqual({ people: "credit.error.people.required" });
    expect(errorsOf(directorsSchema, { "people[0].name": "P", "people[0].role": "king" })).toEqual({
      "people[0].role": "credit.error.personRole.required",
    });
  });

  it("adds a person without judging the new one (conform's list intents, no JavaScript needed)", () => {
    const added = parseWithZod(
      form({
        "people[0].name": "Olivia",
        "people[0].role": "director",
        __intent__: JSON.stringify({ type: "insert", payload: { name: "people" } }),
      }),
      { schema: directorsSchema },
    );
    // Not a submission: nothing is saved, and the page comes back with one more person.
    expect(added.status).toBeUndefined();
    const reply = added.reply();
    expect((reply.initialValue as { people: unknown[] }).people).toHaveLength(2);
    // Only what was typed counts as validated: the new, empty person shows no errors yet.
    expect(reply.fields).toEqual(["people[0].name", "people[0].role"]);
  });
});

describe("the credit asked for", () => {
  it("parses amounts exactly into cents", () => {
    expect(valueOf(creditSchema, { limit: "$25,000", monthly: "8000.50" })).toEqual({
      limitCents: 2_500_000,
      monthlyCents: 800_050,
    });
    expect(valueOf(creditSchema, { limit: "5,000,000.00", monthly: "0.01" })).toEqual({
      limitCents: 500_000_000,
      monthlyCents: 1,
    });
  });

  it.each([
    ["0", "credit.error.money.zero"],
    ["-5", "credit.error.money.negative"],
    ["12.345", "credit.error.money.decimals"],
    ["5,000,000.01", "credit.error.money.tooLarge"],
    ["1e6", "credit.error.money.format"],
    ["ten thousand", "credit.error.money.format"],
    ["1,00", "credit.error.money.format"],
  ])("refuses a limit of %j", (limit, message) => {
    expect(errorsOf(creditSchema, { limit, monthly: "100" })).toEqual({ limit: message });
  });
});

describe("trade references", () => {
  const referee = (i: number, email = `ref${i}@example.com`) => ({
    [`referees[${i}].business`]: `Supplier ${i}`,
    [`referees[${i}].contactName`]: `Alex ${i}`,
    [`referees[${i}].email`]: email,
    [`referees[${i}].phone`]: `02 1234 567${i}`,
  });

  it("takes two or three, in order", () => {
    expect(valueOf(referencesSchema("me@coastal.example"), { ...referee(0), ...referee(1) })).toEqual({
      referees: [
        { business: "Supplier 0", contactName: "Alex 0", email: "ref0@example.com", phone: "02 1234 5670" },
        { business: "Supplier 1", contactName: "Alex 1", email: "ref1@example.com", phone: "02 1234 5671" },
      ],
    });
    expect(errorsOf(referencesSchema(null), referee(0))).toEqual({ referees: "credit.error.referees.required" });
    expect(errorsOf(referencesSchema(null), { ...referee(0), ...referee(1), ...referee(2), ...referee(3) })).toEqual({
      referees: "credit.error.referees.tooMany",
    });
  });

  it("refuses the applicant as their own referee, and two referees with one email", () => {
    expect(
      errorsOf(referencesSchema("Me@Coastal.example"), { ...referee(0, "me@coastal.example"), ...referee(1) }),
    ).toEqual({ "referees[0].email": "credit.error.refereeEmail.self" });
    expect(
      errorsOf(referencesSchema(null), { ...referee(0, "same@x.example"), ...referee(1, "SAME@x.example") }),
    ).toEqual({
      "referees[1].email": "credit.error.refereeEmail.duplicate",
    });
  });

  it("rechecks stored references against the applicant's current email", () => {
    const answers: CreditAnswers = {
      contacts: {
        applicant: { name: "A", position: "B", email: "ref0@example.com", phone: "0298765432" },
        accountsPayable: { name: "A", email: "ref0@example.com", phone: "0298765432" },
        accountsPayableIsApplicant: true,
      },
      references: {
        referees: [
          { business: "S0", contactName: "A0", email: "ref0@example.com", phone: "0212345670" },
          { business: "S1", contactName: "A1", email: "ref1@example.com", phone: "0212345671" },
        ],
      },
    };
    expect(refereeProblems(answers)).toBe(true);
    answers.contacts!.applicant.email = "someone@else.example";
    expect(refereeProblems(answers)).toBe(false);
  });
});

describe("direct debit", () => {
  it("is optional", () => {
    expect(valueOf(bankSchema("AU"), { directDebit: "no", bsb: "garbage" })).toEqual({ directDebit: false });
    expect(errorsOf(bankSchema("AU"), {})).toEqual({ directDebit: "credit.error.directDebit.required" });
  });

  it("takes an Australian BSB and account", () => {
    expect(
      valueOf(bankSchema("AU"), {
        directDebit: "yes",
        accountName: "Coastal",
        bsb: "062-000",
        accountNumber: "1234 5678",
      }),
    ).toEqual({ directDebit: true, accountName: "Coastal", routing: "062000", accountNumber: "12345678" });
    expect(errorsOf(bankSchema("AU"), { directDebit: "yes", bsb: "62-000", accountNumber: "12" })).toEqual({
      accountName: "pm.error.accountName.required",
      bsb: "pm.error.bsb.invalid",
      accountNumber: "pm.error.auAccountNumber.invalid",
    });
  });

  it("takes a New Zealand account, checked by its bank's rule", () => {
    const nz = {
      directDebit: "yes",
      accountName: "Orchards",
      bank: "01",
      branch: "0902",
      account: "0068389",
      suffix: "00",
    };
    expect(valueOf(bankSchema("NZ"), nz)).toEqual({
      directDebit: true,
      accountName: "Orchards",
      routing: "01-0902",
      accountNumber: "0068389-00",
    });
    expect(errorsOf(bankSchema("NZ"), { ...nz, account: "0068388" })).toEqual({
      account: "pm.error.nzAccount.checksum",
    });
    expect(errorsOf(bankSchema("NZ"), { ...nz, bank: "99" })).toEqual({ bank: "pm.error.nzBank.unknown" });
  });
});

describe("a stored answer shown again", () => {
  it("round-trips every step through its form", () => {
    const inputs: Record<string, Record<string, string>> = {
      business: {
        legalName: "Coastal <i>Plumbing</i>",
        entityType: "company",
        acn: "004028077",
        tradingName: "Coastal",
      },
      address: {
        line1: "12 Harbour St",
        suburb: "Sydney",
        state: "NSW",
        postcode: "2000",
        postalLine1: "PO Box 1",
        postalSuburb: "Sydney",
        postalState: "NSW",
        postalPostcode: "2001",
      },
      contacts: {
        applicantName: "O",
        applicantPosition: "D",
        applicantEmail: "o@x.example",
        applicantPhone: "0298765432",
        apName: "S",
        apEmail: "s@x.example",
        apPhone: "0298765433",
      },
      directors: { "people[0].name": "O", "people[0].role": "director" },
      credit: { limit: "25000.50", monthly: "100" },
      references: {
        "referees[0].business": "S0",
        "referees[0].contactName": "A0",
        "referees[0].email": "a0@y.example",
        "referees[0].phone": "0212345670",
        "referees[1].business": "S1",
        "referees[1].contactName": "A1",
        "referees[1].email": "a1@y.example",
        "referees[1].phone": "0212345671",
      },
      bank: { directDebit: "yes", accountName: "Coastal", bsb: "062000", accountNumber: "12345678" },
    };
    for (const [step, fields] of Object.entries(inputs)) {
      const schema = stepSchema(step as "business", "AU", {});
      const stored = valueOf(schema, fields);
      const values = stepFormValues(step as "business", { [step]: stored } as CreditAnswers);
      // The values, posted again as a form, give the same stored answer.
      const flat: Record<string, string> = {};
      const flatten = (value: unknown, prefix: string) => {
        if (Array.isArray(value)) value.forEach((item, i) => flatten(item, `${prefix}[${i}]`));
        else if (value && typeof value === "object")
          for (const [k, v] of Object.entries(value)) flatten(v, prefix ? `${prefix}.${k}` : k);
        else if (typeof value === "string") flat[prefix] = value;
      };
      flatten(values, "");
      expect(valueOf(schema, flat), step).toEqual(stored);
    }
  });
});
