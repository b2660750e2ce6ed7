import { describe, expect, it } from "vitest";
import { MESSAGES } from "~/lib/i18n/catalog";
import { messagesFile } from "~/services/host/messages-file.server";
import { loader } from "./i18n.$file";

/**
 * /i18n/<language>.json (decision 086): the dictionary a hydrating page fetches before it hydrates,
 * the same text the server renders with, cached for a year at its own version only.
 */
function get(file: string, search = "") {
  const request = new Request(`http://acme.localhost/i18n/${encodeURIComponent(file)}${search}`);
  return loader({ request, params: { file }, context: {} });
}

describe("/i18n/<language>.json", () => {
  it("answers each language's whole dictionary, kept for a year at its current version", async () => {
    for (const language of ["en-AU", "ID"] as const) {
      const { version, href } = messagesFile(language);
      expect(href).toBe(`/i18n/${language}.json?v=${version}`);
      expect(version).toMatch(/^[0-9a-f]{12}$/);
      const response = await get(`${language}.json`, `?v=${version}`);
      expect(response.status).toBe(200);
      expect(response.headers.get("Content-Type")).toBe("application/json; charset=utf-8");
      expect(response.headers.get("Cache-Control")).toBe("public, max-age=31536000, immutable");
      expect(response.headers.get("Content-Language")).toBe(language);
      expect(await response.json()).toEqual(MESSAGES[language]);
    }
    expect(messagesFile("en-AU").version).not.toBe(messagesFile("ID").version);
  });

  it("answers the current text under any other version, for no cache to keep", async () => {
    for (const search of ["", "?v=0123456789ab", "?v=", `?v=${"f".repeat(5000)}`]) {
      const response = await get("ID.json", search);
      expect(response.status).toBe(200);
      expect(response.headers.get("Cache-Control")).toBe("no-cache");
      expect((await response.json())["auth.signin.title"]).toBe("Masuk");
    }
  });

  it("is a 404 for anything that is not a language's file", async () => {
    const names = [
      "xx.json",
      "en-au.json",
      "en-AU",
      "en-AU.js",
      "en-AU.json.map",
      "../catalog.json",
      "",
      "a".repeat(10_000),
    ];
    for (const name of names) {
      const response = await get(name);
      expect(response.status, name).toBe(404);
      expect(response.headers.get("Cache-Control"), name).toBeNull();
      expect(await response.text()).toBe("Not found");
    }
  });
});
