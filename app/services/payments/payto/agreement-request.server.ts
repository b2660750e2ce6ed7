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
import { isUuid, UUID } from "~/lib/ids";

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

export type TokenRequestResult =
  { ok: true; accountId: string; request: NewAgreement } | { ok: false; errors: Record<string, MessageKey> };

const asText = (value: unknown) =>
  typeof value === "string" ? value : typeof value === "number" && Number.isFinite(value) ? String(value) : null;

/**
 * The spec's token request: requestGuid, accountID and payToDebtorInformation (an object, or
 * its JSON as a form field, or its fields at the top level of a form). Every problem is
 * answered by field name, as the spec spells the fields.
 */
export function parseTokenRequest(body: Record<string, unknown>): TokenRequestResult {
  const errors: Record<string, MessageKey> = {};
  const requestGuid = asText(body.requestGuid);
  if (!isUuid(requestGuid)) errors.requestGuid = "payto.error.requestGuid.invalid";

  let info: unknown = body.payToDebtorInformation;
  if (typeof info === "string") {
    try {
      info = JSON.parse(info);
    } catch {
      info = undefined;
    }
  }
  if (info === undefined) info = body;
  const debtor = (info !== null && typeof info === "object" && !Array.isArray(info) ? info : {}) as Record<
    string,
    unknown
  >;

  const partyType = asText(debtor.party_type) ?? "PERS";
  if (partyType !== "PERS") errors.party_type = "payto.error.partyType.invalid";

  const partyName = checkPartyName(asText(debtor.party_name) ?? "");
  if (!partyName.ok) errors.party_name = partyName.error;
  const ultimate = checkUltimatePartyName(asText(debtor.ultimate_party_name) ?? "");
  if (!ultimate.ok) errors.ultimate_party_name = ultimate.error;

  const typeCode = asText(debtor.account_identification_type_code);
  const aliasType = asText(debtor.account_alias_type_code);
  let identification:
    | Omit<Extract<PayToDebtor, { kind: "bban" }>, "partyType" | "partyName" | "ultimatePartyName">
    | Omit<Extract<PayToDebtor, { kind: "alias" }>, "partyType" | "partyName" | "ultimatePartyName">
    | null = null;
  if (typeCode && aliasType) {
    errors.account_identification_type_code = "payto.error.identification.invalid";
  } else if (typeCode) {
    if (typeCode !== "BBAN") errors.account_identification_type_code = "payto.error.identification.invalid";
    else {
      const bban = checkBban(asText(debtor.account_identification) ?? "");
      if (bban.ok) identification = { kind: "bban", bsb: bban.bsb, accountNumber: bban.accountNumber };
      else errors.account_identification = bban.error;
    }
  } else if (aliasType) {
    if (!isPayIdType(aliasType)) errors.account_alias_type_code = "payto.error.payIdType.invalid";
    else {
      const payId = checkPayId(aliasType, asText(debtor.account_alias_identification) ?? "");
      if (payId.ok) identification = { kind: "alias", aliasType, aliasValue: payId.value };
      else errors.account_alias_identification = payId.error;
    }
  } else {
    errors.account_identification_type_code = "payto.error.identification.invalid";
  }

  const accountId = asText(body.accountID ?? body.accountId);
  if (Object.keys(errors).length > 0 || !identification || !partyName.ok || !ultimate.ok || !requestGuid) {
    return { ok: false, errors };
  }
  return {
    ok: true,
    accountId: accountId ?? "",
    request: {
      requestGuid: requestGuid.toLowerCase(),
      debtor: { partyType: "PERS", partyName: partyName.value, ultimatePartyName: ultimate.value, ...identification },
    },
  };
}
