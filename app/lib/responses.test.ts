import { describe, expect, it } from "vitest";
import {
  addressLines,
  isChoiceOf,
  readAddress,
  readLine,
  readNote,
  responseState,
  sameAddress,
  type Address,
} from "./responses";

/** The shared rules of response requests (decision 040): states, answers, addresses, text. */
describe("responseState", () => {
  const now = new Date("2026-06-01T00:00:00Z");
  it("reads an open request past its expiry as expired, and stored states as they are", () => {
    expect(responseState({ status: "open", expiresAt: "2026-06-01T00:00:01Z" }, now)).toBe("open");
    expect(responseState({ status: "open", expiresAt: "2026-06-01T00:00:00Z" }, now)).toBe("expired");
    expect(responseState({ status: "answered", expiresAt: "2020-01-01T00:00:00Z" }, now)).toBe("answered");
    expect(responseState({ status: "withdrawn", expiresAt: "2030-01-01T00:00:00Z" }, now)).toBe("withdrawn");
  });
});

describe("isChoiceOf", () => {
  it("takes only the kind's own two answers", () => {
    expect(isChoiceOf("delivery-address", "confirmed")).toBe(true);
    expect(isChoiceOf("delivery-address", "accepted")).toBe(false);
    expect(isChoiceOf("statement", "disputed")).toBe(true);
    expect(isChoiceOf("dispute", "acknowledged")).toBe(false);
    expect(isChoiceOf("dispute", "__proto__")).toBe(false);
    expect(isChoiceOf("dispute", undefined)).toBe(false);
  });
});

describe("readAddress", () => {
  const au = { line1: " 12 Wharf St ", locality: "Sydney", state: "nsw", postcode: "2000", country: "au" };

  it("reads an Australian address: trimmed, the state and country in capitals", () => {
    expect(readAddress(au)).toEqual({
      ok: true,
      value: { line1: "12 Wharf St", line2: "", locality: "Sydney", state: "NSW", postcode: "2000", country: "AU" },
    });
  });

  it("reads a New Zealand address, dropping any state", () => {
    const result = readAddress({
      line1: "9 Quay St",
      locality: "Nelson",
      state: "VIC",
      postcode: "7010",
      country: "NZ",
    });
    expect(result).toEqual({
      ok: true,
      value: { line1: "9 Quay St", line2: "", locality: "Nelson", state: "", postcode: "7010", country: "NZ" },
    });
  });

  // The one postcode table (lib/au-postcodes.ts) the credit application checks against too: a border town
  // such as Barooga NSW 3644 is accepted here as there; Jerrabomberra's 2619 is New South Wales, not the ACT.
  it("checks the postcode against the state with the credit application's table, border towns included", () => {
    expect(readAddress({ ...au, locality: "Barooga", postcode: "3644" })).toMatchObject({ ok: true });
    expect(readAddress({ ...au, locality: "Jerrabomberra", state: "ACT", postcode: "2619" })).toMatchObject({
      errors: { postcode: "response.error.postcode.state" },
    });
  });

  it("says what is wrong at each field", () => {
    expect(readAddress({})).toEqual({
      ok: false,
      errors: {
        line1: "response.error.line1.required",
        locality: "response.error.suburb.required",
        country: "response.error.country",
        postcode: "response.error.postcode.required",
      },
    });
    expect(readAddress({ ...au, country: "NZ", locality: " " })).toMatchObject({
      errors: { locality: "response.error.town.required" },
    });
    expect(readAddress({ ...au, state: "" })).toMatchObject({ errors: { state: "response.error.state.required" } });
    expect(readAddress({ ...au, state: "Sydney" })).toMatchObject({ errors: { state: "response.error.state" } });
    expect(readAddress({ ...au, postcode: "200" })).toMatchObject({ errors: { postcode: "response.error.postcode" } });
    expect(readAddress({ ...au, postcode: "٢٠٠٠" })).toMatchObject({ errors: { postcode: "response.error.postcode" } });
    expect(readAddress({ ...au, postcode: "3000" })).toMatchObject({
      errors: { postcode: "response.error.postcode.state" },
    });
    expect(readAddress({ ...au, line2: "a".repeat(101) })).toMatchObject({
      errors: { line2: "response.error.tooLong" },
    });
    expect(readAddress({ ...au, line1: "12\tWharf St" })).toMatchObject({
      errors: { line1: "response.error.characters" },
    });
    expect(readAddress({ ...au, line1: 42 })).toMatchObject({ errors: { line1: "response.error.line1.required" } });
  });

  it("writes an address as on an envelope, and knows the same address typed differently", () => {
    const a = (readAddress(au) as { value: Address }).value;
    expect(addressLines(a)).toEqual(["12 Wharf St", "SYDNEY NSW 2000", "Australia"]);
    const b = (readAddress({ ...au, line1: "12  WHARF st", locality: "sydney" }) as { value: Address }).value;
    expect(sameAddress(a, b)).toBe(true);
    expect(sameAddress(a, { ...b, postcode: "2001" })).toBe(false);
  });
});

describe("readLine and readNote", () => {
  it("keep markup, quotes, SQL and other scripts as text", () => {
    for (const text of ["<b>x</b>", "O'Brien; DROP TABLE x;--", "Zürich 🧾 مرحبا 東京"]) {
      expect(readLine(text, 100, { required: true })).toEqual({ ok: true, value: text });
      expect(readNote(text, 100, { required: true })).toEqual({ ok: true, value: text });
    }
  });

  it("count characters, not UTF-16 units, and normalise to NFC", () => {
    expect(readLine("🧾".repeat(100), 100, { required: true }).ok).toBe(true);
    expect(readLine("🧾".repeat(101), 100, { required: true })).toEqual({ ok: false, error: "response.error.tooLong" });
    expect(readLine("Cafe\u0301", 10, { required: true })).toEqual({ ok: true, value: "Café" });
  });

  it("let a note have lines but no other control or direction characters; a line has neither", () => {
    expect(readNote("one\r\ntwo\rthree", 100, { required: true })).toEqual({ ok: true, value: "one\ntwo\nthree" });
    expect(readLine("one\ntwo", 100, { required: true })).toEqual({ ok: false, error: "response.error.characters" });
    expect(readNote("a\u202eb", 100, { required: true })).toEqual({ ok: false, error: "response.error.characters" });
    expect(readNote("a\u0000b", 100, { required: true })).toEqual({ ok: false, error: "response.error.characters" });
    expect(readLine("\ud800", 100, { required: true })).toEqual({ ok: false, error: "response.error.characters" });
    expect(readNote("   ", 100, { required: false })).toEqual({ ok: true, value: "" });
    expect(readNote("   ", 100, { required: true })).toEqual({ ok: false, error: "response.error.required" });
  });
});
