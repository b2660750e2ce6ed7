import { z } from "zod";
import type { MessageKey } from "~/lib/i18n";
import { rawTextMax } from "~/lib/input-bounds";
import {
  checkAccountNumber,
  checkBban,
  checkBsb,
  checkPartyName,
  checkPayId,
  checkUltimatePartyName,
  isPayIdType,
  PAYID_TYPES,
  type RuleResult,
} from "~/lib/payto-rules";
import type { NewAgreement } from "./agreements.server";
import type { PayToDebtor } from "./payto-provider.server";
import { UUID } from "~/lib/ids";
import { API_BODY_TEXT_MAX } from "../../platform/http.server";

/**
 * The two ways a payer asks for an agreement, read into one `NewAgreement`: the page's form
 * (zod for conform, so errors sit at the fields) and the spec's token request (§3, JSON or a
 * form). Both use the same rules (`payto-rules.ts`); nothing reaches the provider before all pass.
 */
const key = (k: MessageKey) => k;

/** Every field is text; a missing or non-text one gets its field's "required" message. */
const text = (missing: MessageKey, max: number, tooLong: MessageKey) =>
  z.string({ required_error: missing, invalid_type_error: missing }).max(max, tooLong);

/**
 * The raw bound of the typed fields: rawTextMax of the longest rule (a PayID, 256 characters;
 * names are 140), so a pasted name or PayID a little too long still reaches payto-rules and is
 * told which rule it broke. The browser's maxLength is this bound, far above any real value.
 */
const TYPED_MAX = rawTextMax(256);

function addRule(ctx: z.RefinementCtx, path: string, result: RuleResult) {
  if (!result.ok) ctx.addIssue({ code: z.ZodIssueCode.custom, path: [path], message: result.error });
  return result.ok ? result.value : "";
}

/**
 * The set-up form. The PayID and BSB fields are all optional to the browser (only the chosen
 * group is shown, by CSS), and the server requires the chosen group's fields. No maxLength on
 * the names: a pasted 141-character name must reach the server and be told, not cut silently.
 */
export const agreementFormSchema = z
  .object({
    requestGuid: text(key("payto.error.requestGuid.invalid"), 36, key("payto.error.requestGuid.invalid")).regex(
      UUID,
      key("payto.error.requestGuid.invalid"),
    ),
    method: z.enum(["payid", "bban"], { errorMap: () => ({ message: key("payto.error.method.invalid") }) }),
    payIdType: z.enum(PAYID_TYPES, { errorMap: () => ({ message: key("payto.error.payIdType.invalid") }) }).optional(),
    payId: z.string().max(TYPED_MAX, key("payto.error.email.tooLong")).optional(),
    bsb: z.string().max(TYPED_MAX, key("payto.error.bsb.invalid")).optional(),
    accountNumber: z.string().max(TYPED_MAX, key("payto.error.accountNumber.invalid")).optional(),
    partyName: text(key("payto.error.partyName.required"), TYPED_MAX, key("payto.error.partyName.tooLong")),
    ultimatePartyName: z.string().max(TYPED_MAX, key("payto.error.ultimatePartyName.tooLong")).optional(),
    authority: z.literal("on", { errorMap: () => ({ message: key("payto.error.authority.required") }) }),
  })
  .transform((form, ctx): NewAgreement => {
    const partyName = addRule(ctx, "partyName", checkPartyName(form.partyName));
    const ultimatePartyName = addRule(ctx, "ultimatePartyName", checkUltimatePartyName(form.ultimatePartyName ?? ""));
    let identification:
      | { kind: "bban"; bsb: string; accountNumber: string }
      | {
          kind: "alias";
          aliasType: "EMAL" | "TELI" | "AUBN" | "ORGN";
          aliasValue: string;
        };
    if (form.method === "bban") {
      const bsb = addRule(ctx, "bsb", checkBsb(form.bsb ?? ""));
      const accountNumber = addRule(ctx, "accountNumber", checkAccountNumber(form.accountNumber ?? ""));
      identification = { kind: "bban", bsb, accountNumber };
    } else {
      const aliasType = form.payIdType ?? "EMAL";
      const aliasValue = addRule(ctx, "payId", checkPayId(aliasType, form.payId ?? ""));
      identification = { kind: "alias", aliasType, aliasValue };
    }
    return {
      requestGuid: form.requestGuid.toLowerCase(),
      debtor: { partyType: "PERS", partyName, ultimatePartyName, ...identification },
    };
  });

/** Text as the spec's callers send it: a string, or a number as its digits; anything else reads as absent. */
const asText = (value: unknown) =>
  typeof value === "string" ? value : typeof value === "number" && Number.isFinite(value) ? String(value) : undefined;

/**
 * A field of the token request: text, never refused for its type (another type reads as absent,
 * and its rule says what is missing) nor for its length, whose bound is the body's own
 * (API_BODY_TEXT_MAX): every value reaches the rule it always reached, and the rule's message answers it.
 */
const Field = z.preprocess(asText, z.string().max(API_BODY_TEXT_MAX).optional());

/** A field read by a payto-rules rule: its problem is the rule's message, at the field; its value the rule's. */
const ruled = (rule: (text: string) => RuleResult) =>
  Field.transform((text, ctx) => {
    const result = rule(text ?? "");
    if (result.ok) return result.value;
    ctx.addIssue({ code: z.ZodIssueCode.custom, message: result.error });
    return z.NEVER;
  });

const REQUEST_GUID = key("payto.error.requestGuid.invalid");
const PARTY_TYPE = key("payto.error.partyType.invalid");
const IDENTIFICATION = key("payto.error.identification.invalid");

type Identification =
  | Omit<Extract<PayToDebtor, { kind: "bban" }>, "partyType" | "partyName" | "ultimatePartyName">
  | Omit<Extract<PayToDebtor, { kind: "alias" }>, "partyType" | "partyName" | "ultimatePartyName">;

/**
 * The debtor: a person (party_type absent or PERS), named, and one identification, a BBAN or a
 * PayID (both, or neither, is a problem of account_identification_type_code). Every field's
 * problem is named, in the order of the fields.
 */
const DebtorSchema = z
  .object({
    party_type: z
      .preprocess(asText, z.string().max(4, PARTY_TYPE).optional())
      .refine((type) => type === undefined || type === "PERS", PARTY_TYPE),
    party_name: ruled(checkPartyName),
    ultimate_party_name: ruled(checkUltimatePartyName),
    account_identification_type_code: Field,
    account_identification: Field,
    account_alias_type_code: Field,
    account_alias_identification: Field,
  })
  // A refinement, not a transform: it runs when another field is wrong too, so that every problem is named.
  .superRefine((debtor, ctx) => {
    const found = identify(debtor);
    if (!found.ok) ctx.addIssue({ code: z.ZodIssueCode.custom, path: [found.field], message: found.error });
  })
  .transform((debtor): PayToDebtor => {
    const found = identify(debtor);
    if (!found.ok) throw new Error("unreachable: refused above");
    return {
      partyType: "PERS",
      partyName: debtor.party_name,
      ultimatePartyName: debtor.ultimate_party_name,
      ...found.identification,
    };
  });

type IdentificationFields = Partial<
  Record<
    | "account_identification_type_code"
    | "account_identification"
    | "account_alias_type_code"
    | "account_alias_identification",
    string
  >
>;

function identify(
  debtor: IdentificationFields,
): { ok: true; identification: Identification } | { ok: false; field: keyof IdentificationFields; error: MessageKey } {
  const typeCode = debtor.account_identification_type_code;
  const aliasType = debtor.account_alias_type_code;
  if (typeCode && aliasType) return { ok: false, field: "account_identification_type_code", error: IDENTIFICATION };
  if (typeCode) {
    if (typeCode !== "BBAN") return { ok: false, field: "account_identification_type_code", error: IDENTIFICATION };
    const bban = checkBban(debtor.account_identification ?? "");
    if (!bban.ok) return { ok: false, field: "account_identification", error: bban.error };
    return { ok: true, identification: { kind: "bban", bsb: bban.bsb, accountNumber: bban.accountNumber } };
  }
  if (aliasType) {
    if (!isPayIdType(aliasType))
      return { ok: false, field: "account_alias_type_code", error: key("payto.error.payIdType.invalid") };
    const payId = checkPayId(aliasType, debtor.account_alias_identification ?? "");
    if (!payId.ok) return { ok: false, field: "account_alias_identification", error: payId.error };
    return { ok: true, identification: { kind: "alias", aliasType, aliasValue: payId.value } };
  }
  return { ok: false, field: "account_identification_type_code", error: IDENTIFICATION };
}

/**
 * payToDebtorInformation: an object, or its JSON as text (a form's field). When it is absent, or
 * text that is not JSON, the debtor's fields are read from the top level of the body (a form's
 * way); any other value is a debtor with no fields.
 */
const DebtorInformation = z.union([
  z
    .string()
    .max(API_BODY_TEXT_MAX)
    .transform((text): unknown => {
      try {
        return JSON.parse(text);
      } catch {
        return undefined;
      }
    }),
  z.unknown(),
]);

const isFields = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === "object" && !Array.isArray(value);

/** The spec's token request (§3): requestGuid and the debtor, problems named by field as the spec spells them. */
const TokenRequestSchema = z
  .object({ payToDebtorInformation: DebtorInformation })
  .passthrough()
  .transform((body) => {
    const info = body.payToDebtorInformation === undefined ? body : body.payToDebtorInformation;
    return { requestGuid: body.requestGuid, debtor: isFields(info) ? info : {} };
  })
  .pipe(
    z
      .object({
        requestGuid: z.preprocess(
          asText,
          z
            .string({ required_error: REQUEST_GUID, invalid_type_error: REQUEST_GUID })
            .max(36, REQUEST_GUID)
            .regex(UUID, REQUEST_GUID),
        ),
        // Its problems are named by their own fields: the object is the spec's, not a field of its own.
        debtor: DebtorSchema,
      })
      .transform(({ requestGuid, debtor }): NewAgreement => ({ requestGuid: requestGuid.toLowerCase(), debtor })),
  );

/**
 * The account the request names (accountID, the spec's spelling, or accountId): absent when
 * missing, null or empty; else its text, cut at 100 characters, as requireApiPaymentAccount reads it.
 */
const AccountReference = z.preprocess(
  (value) => (value === undefined || value === null || value === "" ? undefined : String(value).slice(0, 100)),
  z.string().max(100).optional(),
);

export type TokenRequestResult = { accountId: string | undefined } & (
  { ok: true; request: NewAgreement } | { ok: false; errors: Record<string, MessageKey> }
);

/**
 * The spec's token call as one schema: the account it names, read whatever else is wrong (access
 * is checked before the request's own problems are told), and the request, whose problems are
 * answered by field name, the first problem of each field, in the order of the fields.
 */
const TokenCallSchema = z
  .object({ accountID: z.unknown(), accountId: z.unknown() })
  .passthrough()
  .transform((body): TokenRequestResult => {
    const accountId = AccountReference.parse(body.accountID ?? body.accountId);
    const parsed = TokenRequestSchema.safeParse(body);
    if (!parsed.success) {
      const errors: Record<string, MessageKey> = {};
      // Every message above is a MessageKey (the rules', and the keys of this file).
      for (const issue of parsed.error.issues) errors[String(issue.path.at(-1))] ??= issue.message as MessageKey;
      return { accountId, ok: false, errors };
    }
    return { accountId, ok: true, request: parsed.data };
  });

export function parseTokenRequest(body: Record<string, unknown>): TokenRequestResult {
  return TokenCallSchema.parse(body);
}
