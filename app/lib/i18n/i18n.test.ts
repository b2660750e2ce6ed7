import { fetchMessages, messagesIn, messagesPath, provideMessages } from "./runtime";
import { describe, expect, it, vi } from "vitest";
import { SIGN_IN_ERRORS } from "../auth-errors";
import { ORDER_STATUSES } from "../format";
import { invoiceStatusKey } from "../invoice-query";
import { STATEMENT_SORT_OPTIONS, STATEMENT_TYPE_OPTIONS } from "../statement-query";
import { enAU } from "./en-AU";
import { id } from "./id";
import { apiText, isMessageKey, MESSAGES, translator } from "./catalog";
import { isLanguageCode, LANGUAGES, metaTranslator } from "./index";

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe("translations", () => {
  it.each(LANGUAGES.map((l) => l.code))("%s has exactly the keys of English (AU), none empty", (code) => {
    const messages: Record<string, unknown> = MESSAGES[code];
    const missing = Object.keys(enAU).filter((key) => !Object.hasOwn(messages, key));
    const extra = Object.keys(messages).filter((key) => !Object.hasOwn(enAU, key));
    const empty = Object.entries(messages).filter(([, text]) => typeof text !== "string" || text.trim() === "");
    expect({ missing, extra, empty: empty.map(([key]) => key) }).toEqual({ missing: [], extra: [], empty: [] });
  });

  it("keeps every placeholder of the English message", () => {
    for (const [key, english] of Object.entries(enAU)) {
      expect(placeholders(id[key as keyof typeof id]), key).toEqual(placeholders(english));
    }
  });

  it("has a text for every key the code builds at run time", () => {
    const built = [
      ...STATEMENT_TYPE_OPTIONS.map((type) => `statements.type.${type}`),
      ...Object.keys(STATEMENT_SORT_OPTIONS).map((sort) => `statements.sort.${sort}`),
      ...Object.values(SIGN_IN_ERRORS),
    ];
    expect(built.filter((key) => !isMessageKey(key))).toEqual([]);
  });

  it("labels order statuses exactly as spec §3 in English (AU), 'Other' for any other code", () => {
    const labels = Object.fromEntries([1, 2, 3, 4, 5, 6, 7, 8].map((code) => [code, enAU[invoiceStatusKey(code)]]));
    expect(labels).toEqual({ ...ORDER_STATUSES });
    expect(labels).toMatchObject({ 5: "On Hold", 8: "Broken Promise" });
    for (const code of [0, 9, -1, 1.5, Number.NaN]) expect(enAU[invoiceStatusKey(code)]).toBe("Other");
  });

  it("translates every order status into Bahasa Indonesia, each label distinct", () => {
    const labels = [1, 2, 3, 4, 5, 6, 7, 8, 0].map((code) => id[invoiceStatusKey(code)]);
    expect(new Set(labels).size).toBe(labels.length);
    expect(labels).toEqual([
      "Terbuka",
      "Ditutup",
      "Lewat Jatuh Tempo",
      "Diarsipkan",
      "Ditahan",
      "Disengketakan",
      "Janji Bayar",
      "Janji Tidak Ditepati",
      "Lainnya",
    ]);
  });

  it("offers the spec's two languages", () => {
    expect(LANGUAGES.map((l) => [l.code, l.label])).toEqual([
      ["en-AU", "English (AU)"],
      ["ID", "Bahasa Indonesia"],
    ]);
    expect(isLanguageCode("ID")).toBe(true);
    expect(isLanguageCode("fr")).toBe(false);
  });

  it("fills placeholders", () => {
    expect(translator("en-AU")("dashboard.welcome", { name: "Olivia" })).toBe("Welcome, Olivia");
    expect(translator("ID")("dashboard.welcome", { name: "Olivia" })).toBe("Selamat datang, Olivia");
    expect(translator("ID")("auth.form.passwordTooShort", { min: 10, max: 200 })).toBe("Gunakan minimal 10 karakter.");
  });

  it("gives the JSON API English, whatever the page language", () => {
    expect(apiText("auth.form.passwordTooShort", { min: 10 })).toBe("Use at least 10 characters.");
    expect(apiText("Missing token")).toBe("Missing token");
  });

  it("titles pages in the root loader's language, from the dictionaries this realm was given", () => {
    const matches = [
      { id: "root", data: { language: "ID" } },
      { id: "routes/auth.signin", data: {} },
    ];
    // Nothing provided yet (a browser before its language's chunk arrived): core English.
    expect(metaTranslator(matches)("errors.notFound.title")).toBe("Page not found");
    provideMessages("ID", MESSAGES.ID);
    expect(metaTranslator(matches)("auth.signin.title")).toBe("Masuk");
    // Without the root loader's data (unknown host, database down) the error screens' English remains.
    expect(metaTranslator([{ id: "root", data: undefined }])("errors.notFound.title")).toBe("Page not found");
  });

  it("fetches one language's dictionary at a time in the browser, and says why it could not", async () => {
    const asked: string[] = [];
    const fetchStub = vi.fn(async (href: string) => {
      asked.push(href);
      return href.startsWith("/i18n/ID.json")
        ? new Response(JSON.stringify({ "auth.signin.title": "Masuk" }), { status: 200 })
        : new Response("Not found", { status: 404 });
    });
    vi.stubGlobal("fetch", fetchStub);
    try {
      expect((await fetchMessages(`${messagesPath("ID")}?v=1`))["auth.signin.title"]).toBe("Masuk");
      await expect(fetchMessages("/i18n/xx.json")).rejects.toThrow("/i18n/xx.json: HTTP 404");
      expect(asked).toEqual(["/i18n/ID.json?v=1", "/i18n/xx.json"]);
      // Fetching provides nothing by itself: entry.client provides what it fetched.
      expect(messagesIn("en-AU")).toBeUndefined();
    } finally {
      vi.unstubAllGlobals();
    }
  });
});
