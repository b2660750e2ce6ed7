import { describe, expect, it } from "vitest";
import { checkNzAccount } from "./bank-account";
import { translatorFrom, type MessageKey } from "./i18n";
import { messagesFor } from "./i18n/catalog";
import { parseStatementQuery } from "./statement-query";

/** Look-ups by a key that came from a request use own properties only (decision 024). */
const INHERITED = ["__proto__", "constructor", "toString", "hasOwnProperty", "valueOf"];

describe("keys that name Object.prototype's properties", () => {
  it.each(INHERITED)("statement sort %s falls back to the default", (key) => {
    expect(parseStatementQuery(new URLSearchParams({ sort: key })).sort).toBe("date-desc");
  });

  it.each(INHERITED)("the translator shows %s as itself, not an inherited function", (key) => {
    const t = translatorFrom({});
    expect(t(key as MessageKey)).toBe(key);
    expect(t("shell.signedInAs" as MessageKey, { [key]: "x" } as Record<string, string>)).toBe("Signed in as {name}");
  });

  it.each(INHERITED)("a language named %s gets the default dictionary", (key) => {
    expect(messagesFor(key as never)).toBe(messagesFor("en-AU"));
  });

  it("an NZ bank code is digits only, so never an inherited name; an unknown bank is refused", () => {
    expect(checkNzAccount({ bank: "99", branch: "0001", account: "0000001", suffix: "00" })).toEqual({
      ok: false,
      problem: "bank",
    });
  });
});
