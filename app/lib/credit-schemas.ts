/**
 * The credit application's step forms (issue 17; decision 038) as zod schemas whose messages are
 * message keys (translated where shown). Used on the server: the browser gets the HTML
 * constraints conform derives from them (required, maxLength), never zod itself (STACK.md).
 * Each schema's output is exactly what the step stores in `credit_applications.answers`
 * (the `CreditAnswers` shape in credit-steps.ts); `stepFormValues` turns a stored answer back
 * into the form's values, so a step opened again shows what was saved.
 *
 * Text is kept as typed (trimmed): markup, quotes and SQL are text, stored as such and rendered
 * escaped. What no one types — control characters, line separators, bidirectional overrides
 * that make a name read differently from what it holds — is refused at the field.
 */
import { z } from "zod";
import { checkNzAccount, formatBsb, parseAuAccountNumber, parseBsb } from "./bank-account";
import { checkBusinessNumber, formatBusinessNumber, type BusinessNumberKind } from "./business-numbers";
import { AU_STATES, auPostcodeInState, POSTCODE_PATTERN } from "./au-postcodes";
import {
  DIRECTOR_ROLES,
  DOCUMENT_KINDS,
  ENTITY_TYPES,
  MAX_CREDIT_LIMIT_CENTS,
  MAX_DIRECTORS,
  MAX_REFERENCES,
  MIN_DIRECTORS,
  MIN_REFERENCES,
  type CreditAddress,
  type CreditAnswers,
  type AnswerStep,
} from "./credit-steps";
import { parseMoneyToCents, MONEY_ERRORS } from "./format";
import type { MessageKey } from "./i18n";
import { rawTextMax } from "./input-bounds";

export type Country = "AU" | "NZ";

const key = (k: MessageKey) => k;

const FORBIDDEN_IN_LINE = /[\p{Cc}\p{Zl}\p{Zp}\p{Cs}\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;
const lineOk = (value: string) => !FORBIDDEN_IN_LINE.test(value);

/** One required line of text, trimmed, at most `max` characters. */
function line(required: MessageKey, max: 100 | 200 = 200) {
  return z
    .string({ required_error: required, invalid_type_error: required })
    .trim()
    .min(1, required)
    .max(max, key(max === 100 ? "credit.error.tooLong.100" : "credit.error.tooLong.200"))
    .refine(lineOk, key("credit.error.text.characters"));
}

/** One optional line: empty (conform sends nothing for an empty field) is null. */
function optionalLine(max: 100 | 200 = 200) {
  return z
    .string({ invalid_type_error: key("credit.error.text.characters") })
    .trim()
    .max(max, key(max === 100 ? "credit.error.tooLong.100" : "credit.error.tooLong.200"))
    .refine(lineOk, key("credit.error.text.characters"))
    .optional()
    .transform((value) => (value ? value : null));
}

function email(required: MessageKey) {
  return z
    .string({ required_error: required, invalid_type_error: required })
    .trim()
    .min(1, required)
    .max(254, key("credit.error.email.tooLong"))
    .email(key("credit.error.email.invalid"));
}

/** 8 to 15 digits with the spaces, brackets, dashes and leading + people write numbers with. */
export function phoneOk(value: string): boolean {
  if (!/^\+?[0-9 ()\-.]+$/.test(value)) return false;
  const digits = value.replace(/\D/g, "").length;
  return digits >= 8 && digits <= 15;
}

function phone(required: MessageKey) {
  return z
    .string({ required_error: required, invalid_type_error: required })
    .trim()
    .min(1, required)
    .max(30, key("credit.error.phone.invalid"))
    .refine(phoneOk, key("credit.error.phone.invalid"));
}

/** A checkbox: "on" (or any value) when ticked, absent when not. */
const CHECKBOX_MAX = 100; // browsers send "on"; any short value a client sets still counts
const checkbox = z
  .string()
  .max(CHECKBOX_MAX)
  .optional()
  .transform((value) => value !== undefined);

function choice<T extends readonly [string, ...string[]]>(values: T, required: MessageKey) {
  return z.enum(values, { errorMap: () => ({ message: required }) });
}

// ---------------------------------------------------------------------------------------------
// The business

const NUMBER_MESSAGES: Record<
  BusinessNumberKind,
  Record<"characters" | "length" | "checksum" | "prefix", MessageKey>
> = {
  abn: {
    characters: "credit.error.abn.characters",
    length: "credit.error.abn.length",
    checksum: "credit.error.abn.checksum",
    prefix: "credit.error.abn.checksum",
  },
  acn: {
    characters: "credit.error.acn.characters",
    length: "credit.error.acn.length",
    checksum: "credit.error.acn.checksum",
    prefix: "credit.error.acn.checksum",
  },
  nzbn: {
    characters: "credit.error.nzbn.characters",
    length: "credit.error.nzbn.length",
    checksum: "credit.error.nzbn.checksum",
    prefix: "credit.error.nzbn.prefix",
  },
};

const numberField = z.string().trim().max(40).optional();

export function businessSchema(country: Country) {
  return z
    .object({
      legalName: line(key("credit.error.legalName.required")),
      tradingName: optionalLine(),
      entityType: choice(ENTITY_TYPES, key("credit.error.entityType.required")),
      abn: numberField,
      acn: numberField,
      nzbn: numberField,
    })
    .superRefine((value, ctx) => {
      const check = (kind: BusinessNumberKind, required: boolean) => {
        const typed = value[kind];
        if (!typed) {
          if (required) ctx.addIssue({ code: "custom", path: [kind], message: key(`credit.error.${kind}.required`) });
          return;
        }
        const result = checkBusinessNumber(kind, typed);
        if (!result.ok) ctx.addIssue({ code: "custom", path: [kind], message: NUMBER_MESSAGES[kind][result.problem] });
      };
      const company = value.entityType === "company";
      if (country === "AU") {
        // A company is registered by its ACN (its ABN, if it has one, is built on it); everyone
        // else who trades has an ABN and no ACN of their own (a trust may give its trustee's).
        check("acn", company);
        check("abn", !company);
      } else {
        // Every New Zealand company has an NZBN; sole traders, partnerships and trusts may.
        check("nzbn", company);
      }
    })
    .transform((value): NonNullable<CreditAnswers["business"]> => {
      const digits = (kind: BusinessNumberKind) => {
        const typed = value[kind];
        if (!typed) return null;
        const result = checkBusinessNumber(kind, typed);
        return result.ok ? result.digits : null;
      };
      return {
        legalName: value.legalName,
        tradingName: value.tradingName,
        entityType: value.entityType,
        abn: country === "AU" ? digits("abn") : null,
        acn: country === "AU" ? digits("acn") : null,
        nzbn: country === "NZ" ? digits("nzbn") : null,
      };
    });
}

// ---------------------------------------------------------------------------------------------
// Addresses

const addressFields = (prefix: "" | "postal") => {
  const name = (field: string) => (prefix ? `${prefix}${field[0]!.toUpperCase()}${field.slice(1)}` : field);
  return {
    line1: name("line1"),
    line2: name("line2"),
    suburb: name("suburb"),
    city: name("city"),
    state: name("state"),
    postcode: name("postcode"),
  };
};

type RawAddress = Record<string, string | undefined>;

/**
 * A field checked only when the form needs it (the accounts-payable contact, the bank account),
 * by the rule its superRefine applies; bounded raw at rawTextMax of the longest (an email, 254).
 */
const optionalText = z.string().max(rawTextMax(254), key("credit.error.tooLong.200")).optional();

/**
 * Each address field's bound as checkAddress counts it (trimmed): lines 200 characters, a suburb
 * or city 100, a postcode 4 digits; a state is one of AU_STATES, not trimmed. The same message
 * answers a value over the bound as the check gives it.
 */
const ADDRESS_BOUNDS = {
  line1: [200, "credit.error.tooLong.200"],
  line2: [200, "credit.error.tooLong.200"],
  suburb: [100, "credit.error.tooLong.100"],
  city: [100, "credit.error.tooLong.100"],
  state: [3, "credit.error.state.required"],
  postcode: [4, "credit.error.postcode.invalid"],
} as const satisfies Record<keyof ReturnType<typeof addressFields>, readonly [number, MessageKey]>;

const addressField = (field: keyof typeof ADDRESS_BOUNDS, required?: MessageKey) => {
  const [max, tooLong] = ADDRESS_BOUNDS[field];
  const messages = required ? { required_error: required } : {};
  return field === "state" ? z.string(messages).max(max, tooLong) : z.string(messages).trim().max(max, tooLong);
};

/** Checks one address's fields (all optional in the schema, so the postal address can be skipped). */
function checkAddress(country: Country, raw: RawAddress, prefix: "" | "postal", ctx: z.RefinementCtx) {
  const names = addressFields(prefix);
  const issue = (field: keyof typeof names, message: MessageKey) =>
    ctx.addIssue({ code: "custom", path: [names[field]], message });
  const text = (field: keyof typeof names, required: MessageKey | null, max: 100 | 200 = 200) => {
    const value = (raw[names[field]] ?? "").trim();
    if (value === "") {
      if (required) issue(field, required);
    } else if (value.length > max) {
      issue(field, max === 100 ? "credit.error.tooLong.100" : "credit.error.tooLong.200");
    } else if (!lineOk(value)) {
      issue(field, "credit.error.text.characters");
    }
  };
  text("line1", prefix ? "credit.error.postalLine1.required" : "credit.error.line1.required");
  text("line2", null);
  text("suburb", country === "AU" ? "credit.error.suburb.required" : null, 100);
  if (country === "NZ") text("city", "credit.error.city.required", 100);
  const postcode = (raw[names.postcode] ?? "").trim();
  if (postcode === "") issue("postcode", "credit.error.postcode.required");
  else if (!POSTCODE_PATTERN.test(postcode)) issue("postcode", "credit.error.postcode.invalid");
  if (country === "AU") {
    const state = raw[names.state];
    if (!state) issue("state", "credit.error.state.required");
    else if (!(AU_STATES as readonly string[]).includes(state)) issue("state", "credit.error.state.required");
    else if (POSTCODE_PATTERN.test(postcode) && !auPostcodeInState(postcode, state as (typeof AU_STATES)[number])) {
      issue("postcode", "credit.error.postcode.state");
    }
  }
}

function toAddress(country: Country, raw: RawAddress, prefix: "" | "postal"): CreditAddress {
  const names = addressFields(prefix);
  const value = (field: keyof typeof names) => {
    const text = (raw[names[field]] ?? "").trim();
    return text === "" ? null : text;
  };
  return {
    line1: value("line1")!,
    line2: value("line2"),
    suburb: value("suburb"),
    city: country === "NZ" ? value("city") : null,
    state: country === "AU" ? (value("state") as CreditAddress["state"]) : null,
    postcode: value("postcode")!,
  };
}

export function addressSchema(country: Country) {
  const trading = addressFields("");
  const postal = addressFields("postal");
  const shape: Record<string, z.ZodTypeAny> = { postalSame: checkbox };
  for (const fields of [trading, postal]) {
    for (const [field, name] of Object.entries(fields)) {
      shape[name] = addressField(field as keyof typeof fields).optional();
    }
  }
  // The trading address's required fields are marked so (HTML `required`); the postal address's
  // are required only when it differs, which the server decides.
  shape[trading.line1] = addressField("line1", key("credit.error.line1.required"));
  shape[trading.postcode] = addressField("postcode", key("credit.error.postcode.required"));
  if (country === "AU") {
    shape[trading.suburb] = addressField("suburb", key("credit.error.suburb.required"));
    shape[trading.state] = addressField("state", key("credit.error.state.required"));
  } else {
    shape[trading.city] = addressField("city", key("credit.error.city.required"));
  }
  return z
    .object(shape)
    .superRefine((value, ctx) => {
      const raw = value as RawAddress & { postalSame: boolean };
      checkAddress(country, raw, "", ctx);
      if (!raw.postalSame) checkAddress(country, raw, "postal", ctx);
    })
    .transform((value): NonNullable<CreditAnswers["address"]> => {
      const raw = value as RawAddress & { postalSame: boolean };
      return {
        trading: toAddress(country, raw, ""),
        postal: raw.postalSame ? null : toAddress(country, raw, "postal"),
      };
    });
}

// ---------------------------------------------------------------------------------------------
// Contacts

export const contactsSchema = z
  .object({
    applicantName: line(key("credit.error.applicantName.required")),
    applicantPosition: line(key("credit.error.applicantPosition.required"), 100),
    applicantEmail: email(key("credit.error.applicantEmail.required")),
    applicantPhone: phone(key("credit.error.applicantPhone.required")),
    apIsApplicant: checkbox,
    apName: optionalText,
    apEmail: optionalText,
    apPhone: optionalText,
  })
  .superRefine((value, ctx) => {
    if (value.apIsApplicant) return;
    const fields = [
      ["apName", line(key("credit.error.apName.required"))],
      ["apEmail", email(key("credit.error.apEmail.required"))],
      ["apPhone", phone(key("credit.error.apPhone.required"))],
    ] as const;
    for (const [name, schema] of fields) {
      const result = schema.safeParse(value[name] ?? "");
      if (!result.success) ctx.addIssue({ code: "custom", path: [name], message: result.error.issues[0]!.message });
    }
  })
  .transform((value): NonNullable<CreditAnswers["contacts"]> => {
    const applicant = {
      name: value.applicantName,
      position: value.applicantPosition,
      email: value.applicantEmail,
      phone: value.applicantPhone,
    };
    return {
      applicant,
      accountsPayable: value.apIsApplicant
        ? { name: applicant.name, email: applicant.email, phone: applicant.phone }
        : { name: value.apName!.trim(), email: value.apEmail!.trim(), phone: value.apPhone!.trim() },
      accountsPayableIsApplicant: value.apIsApplicant,
    };
  });

// ---------------------------------------------------------------------------------------------
// Directors, owners, partners or trustees

export const directorsSchema = z
  .object({
    people: z
      .array(
        z.object({
          name: line(key("credit.error.personName.required")),
          role: choice(DIRECTOR_ROLES, key("credit.error.personRole.required")),
        }),
        { required_error: key("credit.error.people.required") },
      )
      .min(MIN_DIRECTORS, key("credit.error.people.required"))
      .max(MAX_DIRECTORS, key("credit.error.people.tooMany")),
  })
  .transform((value): NonNullable<CreditAnswers["directors"]> => ({ people: value.people }));

// ---------------------------------------------------------------------------------------------
// The credit asked for

const MONEY_MESSAGES: Record<string, MessageKey> = {
  [MONEY_ERRORS.format]: "credit.error.money.format",
  [MONEY_ERRORS.decimals]: "credit.error.money.decimals",
  [MONEY_ERRORS.negative]: "credit.error.money.negative",
  [MONEY_ERRORS.tooLarge]: "credit.error.money.tooLarge",
};

function money(required: MessageKey) {
  return z
    .string({ required_error: required, invalid_type_error: required })
    .trim()
    .min(1, required)
    .max(30, key("credit.error.money.format"))
    .transform((value, ctx) => {
      const parsed = parseMoneyToCents(value);
      if (!parsed.ok) {
        ctx.addIssue({ code: "custom", message: MONEY_MESSAGES[parsed.error] ?? key("credit.error.money.format") });
        return z.NEVER;
      }
      if (parsed.cents === 0) {
        ctx.addIssue({ code: "custom", message: key("credit.error.money.zero") });
        return z.NEVER;
      }
      if (parsed.cents > MAX_CREDIT_LIMIT_CENTS) {
        ctx.addIssue({ code: "custom", message: key("credit.error.money.tooLarge") });
        return z.NEVER;
      }
      return parsed.cents;
    });
}

export const creditSchema = z
  .object({
    limit: money(key("credit.error.limit.required")),
    monthly: money(key("credit.error.monthly.required")),
  })
  .transform((value): NonNullable<CreditAnswers["credit"]> => ({
    limitCents: value.limit,
    monthlyCents: value.monthly,
  }));

// ---------------------------------------------------------------------------------------------
// Trade references

const sameEmail = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/**
 * Two or three referees. A referee is another business: not the applicant's own email, and
 * each with an email of their own (each is sent their own link).
 */
export function referencesSchema(applicantEmail: string | null) {
  return z
    .object({
      referees: z
        .array(
          z.object({
            business: line(key("credit.error.refereeBusiness.required")),
            contactName: line(key("credit.error.refereeContact.required")),
            email: email(key("credit.error.refereeEmail.required")),
            phone: phone(key("credit.error.refereePhone.required")),
          }),
          { required_error: key("credit.error.referees.required") },
        )
        .min(MIN_REFERENCES, key("credit.error.referees.required"))
        .max(MAX_REFERENCES, key("credit.error.referees.tooMany")),
    })
    .superRefine((value, ctx) => {
      value.referees.forEach((referee, index) => {
        if (applicantEmail && sameEmail(referee.email, applicantEmail)) {
          ctx.addIssue({
            code: "custom",
            path: ["referees", index, "email"],
            message: key("credit.error.refereeEmail.self"),
          });
        } else if (value.referees.slice(0, index).some((other) => sameEmail(other.email, referee.email))) {
          ctx.addIssue({
            code: "custom",
            path: ["referees", index, "email"],
            message: key("credit.error.refereeEmail.duplicate"),
          });
        }
      });
    })
    .transform((value): NonNullable<CreditAnswers["references"]> => ({ referees: value.referees }));
}

/** The references as stored, checked again against the applicant's email at submission. */
export function refereeProblems(answers: CreditAnswers): boolean {
  const referees = answers.references?.referees ?? [];
  const applicant = answers.contacts?.applicant.email ?? null;
  return referencesSchema(applicant).safeParse({ referees }).success === false;
}

// ---------------------------------------------------------------------------------------------
// Direct debit (optional)

export function bankSchema(country: Country) {
  return z
    .object({
      directDebit: choice(["yes", "no"] as const, key("credit.error.directDebit.required")),
      accountName: optionalText,
      bsb: optionalText,
      accountNumber: optionalText,
      bank: optionalText,
      branch: optionalText,
      account: optionalText,
      suffix: optionalText,
    })
    .superRefine((value, ctx) => {
      if (value.directDebit !== "yes") return;
      const issue = (path: string, message: MessageKey) => ctx.addIssue({ code: "custom", path: [path], message });
      const accountName = (value.accountName ?? "").trim();
      if (accountName === "") issue("accountName", "pm.error.accountName.required");
      else if (accountName.length > 100) issue("accountName", "credit.error.tooLong.100");
      else if (!lineOk(accountName)) issue("accountName", "credit.error.text.characters");
      if (country === "AU") {
        if (!value.bsb?.trim()) issue("bsb", "pm.error.bsb.required");
        else if (!parseBsb(value.bsb)) issue("bsb", "pm.error.bsb.invalid");
        if (!value.accountNumber?.trim()) issue("accountNumber", "pm.error.auAccountNumber.required");
        else if (!parseAuAccountNumber(value.accountNumber)) issue("accountNumber", "pm.error.auAccountNumber.invalid");
        return;
      }
      const parts = {
        bank: value.bank ?? "",
        branch: value.branch ?? "",
        account: value.account ?? "",
        suffix: value.suffix ?? "",
      };
      const required = {
        bank: "pm.error.nzBank.required",
        branch: "pm.error.nzBranch.required",
        account: "pm.error.nzAccount.required",
        suffix: "pm.error.nzSuffix.required",
      } as const;
      let missing = false;
      for (const part of ["bank", "branch", "account", "suffix"] as const) {
        if (!parts[part].trim()) {
          issue(part, required[part]);
          missing = true;
        }
      }
      if (missing) return;
      const check = checkNzAccount(parts);
      if (!check.ok) {
        if (check.problem === "bank") issue("bank", "pm.error.nzBank.unknown");
        else if (check.problem === "checksum") issue("account", "pm.error.nzAccount.checksum");
        else issue("account", "pm.error.nzAccount.invalid");
      }
    })
    .transform((value): NonNullable<CreditAnswers["bank"]> => {
      if (value.directDebit !== "yes") return { directDebit: false };
      const accountName = value.accountName!.trim();
      if (country === "AU") {
        return {
          directDebit: true,
          accountName,
          routing: parseBsb(value.bsb!)!,
          accountNumber: parseAuAccountNumber(value.accountNumber!)!,
        };
      }
      return {
        directDebit: true,
        accountName,
        routing: `${value.bank!.trim()}-${value.branch!.trim()}`,
        accountNumber: `${value.account!.trim()}-${value.suffix!.trim()}`,
      };
    });
}

// ---------------------------------------------------------------------------------------------
// Documents (the kind; the file is checked by content on the server)

export const documentKindSchema = z.object({
  kind: choice(DOCUMENT_KINDS, key("credit.documents.error.kind")),
});

// ---------------------------------------------------------------------------------------------
// Schemas and stored values by step

/** The schema of a step that posts plain fields (the documents and terms steps read their own). */
export function stepSchema(step: Exclude<AnswerStep, "documents">, country: Country, answers: CreditAnswers) {
  switch (step) {
    case "business":
      return businessSchema(country);
    case "address":
      return addressSchema(country);
    case "contacts":
      return contactsSchema;
    case "directors":
      return directorsSchema;
    case "credit":
      return creditSchema;
    case "references":
      return referencesSchema(answers.contacts?.applicant.email ?? null);
    case "bank":
      return bankSchema(country);
  }
}

const centsText = (cents: number) => `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, "0")}`;

function addressValues(address: CreditAddress | null | undefined, prefix: "" | "postal") {
  if (!address) return {};
  const names = addressFields(prefix);
  return {
    [names.line1]: address.line1,
    [names.line2]: address.line2 ?? "",
    [names.suburb]: address.suburb ?? "",
    [names.city]: address.city ?? "",
    [names.state]: address.state ?? "",
    [names.postcode]: address.postcode,
  };
}

/**
 * A stored answer as its form's values (what the step shows when opened again), or the form's
 * starting values when the step has no answer yet.
 */
export function stepFormValues(step: AnswerStep, answers: CreditAnswers): Record<string, unknown> {
  switch (step) {
    case "business": {
      const value = answers.business;
      if (!value) return {};
      return {
        legalName: value.legalName,
        tradingName: value.tradingName ?? "",
        entityType: value.entityType,
        abn: value.abn ? formatBusinessNumber("abn", value.abn) : "",
        acn: value.acn ? formatBusinessNumber("acn", value.acn) : "",
        nzbn: value.nzbn ?? "",
      };
    }
    case "address": {
      const value = answers.address;
      if (!value) return { postalSame: "on" };
      return {
        ...addressValues(value.trading, ""),
        ...addressValues(value.postal, "postal"),
        postalSame: value.postal ? undefined : "on",
      };
    }
    case "contacts": {
      const value = answers.contacts;
      if (!value) return { apIsApplicant: "on" };
      return {
        applicantName: value.applicant.name,
        applicantPosition: value.applicant.position,
        applicantEmail: value.applicant.email,
        applicantPhone: value.applicant.phone,
        apIsApplicant: value.accountsPayableIsApplicant ? "on" : undefined,
        apName: value.accountsPayableIsApplicant ? "" : value.accountsPayable.name,
        apEmail: value.accountsPayableIsApplicant ? "" : value.accountsPayable.email,
        apPhone: value.accountsPayableIsApplicant ? "" : value.accountsPayable.phone,
      };
    }
    case "directors":
      return { people: answers.directors?.people ?? [{ name: "", role: "" }] };
    case "credit": {
      const value = answers.credit;
      return value ? { limit: centsText(value.limitCents), monthly: centsText(value.monthlyCents) } : {};
    }
    case "references":
      return {
        referees: answers.references?.referees ?? Array.from({ length: MIN_REFERENCES }, () => ({})),
      };
    case "bank": {
      const value = answers.bank;
      if (!value) return {};
      if (!value.directDebit) return { directDebit: "no" };
      const [bank = "", branch = ""] = value.routing.split("-");
      const [account = "", suffix = ""] = value.accountNumber.split("-");
      return {
        directDebit: "yes",
        accountName: value.accountName,
        bsb: /^\d{6}$/.test(value.routing) ? formatBsb(value.routing) : "",
        accountNumber: /^\d+$/.test(value.accountNumber) ? value.accountNumber : "",
        bank,
        branch,
        account,
        suffix,
      };
    }
    case "documents":
      return {};
  }
}
