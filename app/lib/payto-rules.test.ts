import { describe, expect, it } from "vitest";
import {
  checkAbn,
  checkAccountNumber,
  checkBban,
  checkBsb,
  checkEmailPayId,
  checkMobilePayId,
  checkOrganisationId,
  checkPartyName,
  checkPayId,
  checkUltimatePartyName,
  formatPayId,
} from "./payto-rules";

const good = (value: string) => ({ ok: true, value });
const bad = (error: string) => ({ ok: false, error });

describe("ABN", () => {
  it("accepts ABNs with a valid check, typed with or without spaces", () => {
    expect(checkAbn("51 824 753 556")).toEqual(good("51824753556"));
    expect(checkAbn("51824753556")).toEqual(good("51824753556"));
    expect(checkAbn(" 53 004 085 616 ")).toEqual(good("53004085616"));
  });
  it("refuses a wrong check digit, the wrong length, and anything not digits", () => {
    expect(checkAbn("51 824 753 557")).toEqual(bad("payto.error.abn.checksum"));
    expect(checkAbn("12345678901")).toEqual(bad("payto.error.abn.checksum"));
    expect(checkAbn("5182475355")).toEqual(bad("payto.error.abn.format"));
    expect(checkAbn("518247535561")).toEqual(bad("payto.error.abn.format"));
    expect(checkAbn("51-824-753-556")).toEqual(bad("payto.error.abn.format"));
    expect(checkAbn("5182475355６")).toEqual(bad("payto.error.abn.format"));
    expect(checkAbn("' OR 1=1 --")).toEqual(bad("payto.error.abn.format"));
    expect(checkAbn("  ")).toEqual(bad("payto.error.abn.required"));
  });
});

describe("email PayID", () => {
  it("accepts addresses and lower-cases them", () => {
    expect(checkEmailPayId("Olivia.Ng+rent@Coastal.Example.com.au")).toEqual(
      good("olivia.ng+rent@coastal.example.com.au"),
    );
    expect(checkEmailPayId(" approve@payto.test ")).toEqual(good("approve@payto.test"));
  });
  it("refuses two @, none, a bad domain, markup, spaces and over 256 characters", () => {
    for (const value of [
      "a@b@c.com",
      "olivia.coastal.example",
      "olivia@localhost",
      "olivia@-bad.com",
      "olivia@bad..com",
      "olivia@example.c",
      ".olivia@example.com",
      "oli..via@example.com",
      "<script>@example.com",
      "olivia smith@example.com",
      "olívia@example.com",
      "olivia@exam_ple.com",
      "'; DROP TABLE payto_agreements; --@x.com",
    ]) {
      expect(checkEmailPayId(value), value).toEqual(bad("payto.error.email.invalid"));
    }
    expect(checkEmailPayId(`${"a".repeat(60)}@${"b".repeat(200)}.com`)).toEqual(bad("payto.error.email.tooLong"));
    expect(checkEmailPayId("")).toEqual(bad("payto.error.email.required"));
  });
});

describe("mobile PayID", () => {
  it("accepts AU mobiles as typed and answers the NPP form", () => {
    for (const typed of [
      "0412 345 678",
      "+61412345678",
      "+61 4 1234 5678",
      "+61-412345678",
      "(04) 1234-5678",
      "+61 0412 345 678",
    ]) {
      expect(checkMobilePayId(typed), typed).toEqual(good("+61-412345678"));
    }
  });
  it("refuses other countries, landlines, short and long numbers and letters", () => {
    expect(checkMobilePayId("+64 21 123 4567")).toEqual(bad("payto.error.mobile.country"));
    expect(checkMobilePayId("+1 415 555 0100")).toEqual(bad("payto.error.mobile.country"));
    expect(checkMobilePayId("02 9876 5432")).toEqual(bad("payto.error.mobile.invalid"));
    expect(checkMobilePayId("0412 345 67")).toEqual(bad("payto.error.mobile.invalid"));
    expect(checkMobilePayId("0412 345 6789")).toEqual(bad("payto.error.mobile.invalid"));
    expect(checkMobilePayId("412345678")).toEqual(bad("payto.error.mobile.invalid"));
    expect(checkMobilePayId("0412 ABC 678")).toEqual(bad("payto.error.mobile.invalid"));
    expect(checkMobilePayId("٠٤١٢٣٤٥٦٧٨")).toEqual(bad("payto.error.mobile.invalid"));
    expect(checkMobilePayId("")).toEqual(bad("payto.error.mobile.required"));
  });
});

describe("organisation id", () => {
  it("accepts letters, digits and spaces up to 256", () => {
    expect(checkOrganisationId(" Coastal  Cafe 42 ")).toEqual(good("Coastal Cafe 42"));
    expect(checkOrganisationId("A".repeat(256))).toEqual(good("A".repeat(256)));
  });
  it("refuses punctuation, markup, unicode letters, empty and 257 characters", () => {
    expect(checkOrganisationId("Coastal & Co")).toEqual(bad("payto.error.orgId.invalid"));
    expect(checkOrganisationId("<b>Org</b>")).toEqual(bad("payto.error.orgId.invalid"));
    expect(checkOrganisationId("Café")).toEqual(bad("payto.error.orgId.invalid"));
    expect(checkOrganisationId("A".repeat(257))).toEqual(bad("payto.error.orgId.tooLong"));
    expect(checkOrganisationId("   ")).toEqual(bad("payto.error.orgId.required"));
  });
});

describe("PayID by kind", () => {
  it("applies the rule of the chosen kind", () => {
    expect(checkPayId("EMAL", "A@B.CO")).toEqual(good("a@b.co"));
    expect(checkPayId("TELI", "0412345678")).toEqual(good("+61-412345678"));
    expect(checkPayId("AUBN", "51 824 753 556")).toEqual(good("51824753556"));
    expect(checkPayId("ORGN", "Org 1")).toEqual(good("Org 1"));
    expect(checkPayId("AUBN", "approve@payto.test")).toEqual(bad("payto.error.abn.format"));
  });
  it("formats mobiles and ABNs for reading", () => {
    expect(formatPayId("TELI", "+61-412345678")).toBe("+61 412 345 678");
    expect(formatPayId("AUBN", "51824753556")).toBe("51 824 753 556");
    expect(formatPayId("EMAL", "a@b.co")).toBe("a@b.co");
  });
});

describe("BSB and account number", () => {
  it("accepts six digits with a dash or space, and 4–9 digit accounts", () => {
    expect(checkBsb("123-456")).toEqual(good("123456"));
    expect(checkBsb("123 456")).toEqual(good("123456"));
    expect(checkAccountNumber("1234")).toEqual(good("1234"));
    expect(checkAccountNumber("12 345 678")).toEqual(good("12345678"));
    expect(checkAccountNumber("123456789")).toEqual(good("123456789"));
  });
  it("refuses five or seven digits, letters and wrong account lengths", () => {
    expect(checkBsb("12345")).toEqual(bad("payto.error.bsb.invalid"));
    expect(checkBsb("1234567")).toEqual(bad("payto.error.bsb.invalid"));
    expect(checkBsb("12a-456")).toEqual(bad("payto.error.bsb.invalid"));
    expect(checkBsb("")).toEqual(bad("payto.error.bsb.required"));
    expect(checkAccountNumber("123")).toEqual(bad("payto.error.accountNumber.invalid"));
    expect(checkAccountNumber("1234567890")).toEqual(bad("payto.error.accountNumber.invalid"));
    expect(checkAccountNumber("1234; DROP")).toEqual(bad("payto.error.accountNumber.invalid"));
    expect(checkAccountNumber(" ")).toEqual(bad("payto.error.accountNumber.required"));
  });
  it("reads the spec's account_identification as BSB then account", () => {
    expect(checkBban("000-000 10000001")).toEqual({ ok: true, bsb: "000000", accountNumber: "10000001" });
    expect(checkBban("12345612345678")).toEqual({ ok: true, bsb: "123456", accountNumber: "12345678" });
    expect(checkBban("12345")).toEqual({ ok: false, error: "payto.error.bsb.invalid" });
    expect(checkBban("123456 123")).toEqual({ ok: false, error: "payto.error.accountNumber.invalid" });
    expect(checkBban("123456 1234567890")).toEqual({ ok: false, error: "payto.error.accountNumber.invalid" });
    expect(checkBban("123456 <b>")).toEqual({ ok: false, error: "payto.error.bban.invalid" });
    expect(checkBban("")).toEqual({ ok: false, error: "payto.error.bban.required" });
  });
});

describe("names", () => {
  it("keeps names of 1–140 characters, trimmed and in NFC, unicode included", () => {
    expect(checkPartyName("  Olivia Ng ")).toEqual(good("Olivia Ng"));
    expect(checkPartyName("Zoe\u0308 Nguyễn")).toEqual(good("Zoë Nguyễn"));
    expect(checkPartyName("O'Brien & Sons (Pty) Ltd; DROP TABLE x")).toEqual(
      good("O'Brien & Sons (Pty) Ltd; DROP TABLE x"),
    );
    expect(checkPartyName("名".repeat(140))).toEqual(good("名".repeat(140)));
    // Characters, not UTF-16 units: 140 emoji are 280 units but 140 characters.
    expect(checkPartyName("😀".repeat(140)).ok).toBe(true);
  });
  it("refuses empty, 141 characters, control and invisible characters, and markup", () => {
    expect(checkPartyName("   ")).toEqual(bad("payto.error.partyName.required"));
    expect(checkPartyName("a".repeat(141))).toEqual(bad("payto.error.partyName.tooLong"));
    expect(checkPartyName("Olivia\u0000Ng")).toEqual(bad("payto.error.name.control"));
    expect(checkPartyName("Olivia\nNg")).toEqual(bad("payto.error.name.control"));
    expect(checkPartyName("Olivia \u202Egn")).toEqual(bad("payto.error.name.control"));
    expect(checkPartyName("Oli\u200Bvia")).toEqual(bad("payto.error.name.control"));
    expect(checkPartyName("<script>alert(1)</script>")).toEqual(bad("payto.error.name.characters"));
  });
  it("allows an empty ultimate party name, up to 140", () => {
    expect(checkUltimatePartyName("")).toEqual(good(""));
    expect(checkUltimatePartyName(" Coastal Cafe ")).toEqual(good("Coastal Cafe"));
    expect(checkUltimatePartyName("b".repeat(140))).toEqual(good("b".repeat(140)));
    expect(checkUltimatePartyName("b".repeat(141))).toEqual(bad("payto.error.ultimatePartyName.tooLong"));
    expect(checkUltimatePartyName("<img src=x>")).toEqual(bad("payto.error.name.characters"));
  });
});
