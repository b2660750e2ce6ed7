import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  checkFormAgainstSchema,
  checkFormNames,
  checkJsonShape,
  countRawFields,
  fieldPath,
  MAX_FORM_FIELDS,
  parseSubmission,
  tooLongFor,
} from "./form-limits.server";
import { parseFormBody, readApiBody, readForm } from "./http.server";

/** The bounds of issue 28 (decision 055): what a form body may ask the server to build. */

function form(pairs: [string, string][]) {
  const data = new FormData();
  for (const [name, value] of pairs) data.append(name, value);
  return data;
}

const people = z.object({
  legalName: z.string().max(200),
  people: z
    .array(z.object({ name: z.string().trim().max(100), role: z.enum(["director", "owner"]) }))
    .min(1)
    .max(10),
  note: z.preprocess((value) => String(value).replace(/\s+/g, ""), z.string().max(5)).optional(),
});

describe("field names", () => {
  it("reads Conform's paths", () => {
    expect(fieldPath("legalName")).toEqual(["legalName"]);
    expect(fieldPath("people[2].name")).toEqual(["people", 2, "name"]);
    expect(fieldPath("a.b[0][1].c")).toEqual(["a", "b", 0, 1, "c"]);
  });

  it("refuses an index past the global bound, padded or empty indices, and malformed or deep names", () => {
    expect(fieldPath("people[999999999].name")).toBe("list-index");
    expect(fieldPath("people[100].name")).toBe("list-index");
    expect(fieldPath("people[99].name")).toEqual(["people", 99, "name"]);
    for (const name of ["people[007]", "people[]", "[0]", "a..b", ".a", "a.", "a[x]", "a.b.c.d.e.f.g", "__proto__.x"]) {
      expect(fieldPath(name), name).toBeNull();
    }
    expect(fieldPath("x".repeat(121))).toBeNull();
  });

  it("counts fields in the raw bytes before parsing, never fewer than there are", () => {
    const body = new TextEncoder().encode("a=1&b=2&c=3");
    expect(countRawFields(body, "application/x-www-form-urlencoded")).toBe(3);
    const multipart = new TextEncoder().encode(
      '--XyZ\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--XyZ\r\nContent-Disposition: form-data; name="b"\r\n\r\n2\r\n--XyZ--\r\n',
    );
    expect(countRawFields(multipart, "multipart/form-data; boundary=XyZ")).toBe(2);
  });

  it("gate 1 refuses too many fields, a sparse index and Conform's __state__", () => {
    expect(checkFormNames(form([["a", "1"]]))).toBeNull();
    expect(checkFormNames(form(Array.from({ length: MAX_FORM_FIELDS + 1 }, () => ["a", ""] as [string, string])))).toBe(
      "too-many-fields",
    );
    expect(checkFormNames(form([["people[999999999].name", "a"]]))).toBe("list-index");
    expect(checkFormNames(form([["__state__", "{}"]]))).toBe("field-name");
  });
});

describe("a Conform form against its schema", () => {
  it("takes what the form sends", () => {
    const ok = form([
      ["legalName", "Harbourside Fit-outs"],
      ["people[0].name", "Ana"],
      ["people[0].role", "director"],
      ["people[9].name", "Ben"],
      ["returnTo", "check"],
    ]);
    expect(checkFormAgainstSchema(ok, people, ["returnTo"])).toBeNull();
  });

  it("refuses a name the schema does not have, unless the caller reads it", () => {
    expect(checkFormAgainstSchema(form([["legalNam", "x"]]), people)).toBe("unknown-field");
    expect(checkFormAgainstSchema(form([["people[0].age", "x"]]), people)).toBe("unknown-field");
    expect(checkFormAgainstSchema(form([["returnTo", "check"]]), people)).toBe("unknown-field");
  });

  it("refuses an index past the list's own maximum, and more repeated values than it holds", () => {
    expect(checkFormAgainstSchema(form([["people[10].name", "x"]]), people)).toBe("list-index");
    const tags = z.object({ tag: z.array(z.string().max(10)).max(3) });
    expect(
      checkFormAgainstSchema(
        form([
          ["tag", "a"],
          ["tag", "b"],
          ["tag", "c"],
        ]),
        tags,
      ),
    ).toBeNull();
    expect(
      checkFormAgainstSchema(
        form([
          ["tag", "a"],
          ["tag", "b"],
          ["tag", "c"],
          ["tag", "d"],
        ]),
        tags,
      ),
    ).toBe("list-too-long");
  });

  it("leaves a text a little too long to its field's message, and refuses one no person typed", () => {
    expect(checkFormAgainstSchema(form([["legalName", "x".repeat(201)]]), people)).toBeNull();
    expect(checkFormAgainstSchema(form([["legalName", "x".repeat(tooLongFor(200))]]), people)).toBeNull();
    expect(checkFormAgainstSchema(form([["legalName", "x".repeat(tooLongFor(200) + 1)]]), people)).toBe(
      "field-too-long",
    );
    // A preprocess may shorten what it is given: its inner maximum says nothing of the raw text.
    expect(checkFormAgainstSchema(form([["note", " ".repeat(1000) + "abc"]]), people)).toBeNull();
  });

  it("bounds Conform's list buttons (__intent__) by the list they name", () => {
    const intent = (value: unknown) => form([["__intent__", JSON.stringify(value)]]);
    expect(checkFormAgainstSchema(intent({ type: "insert", payload: { name: "people" } }), people)).toBeNull();
    expect(
      checkFormAgainstSchema(intent({ type: "remove", payload: { name: "people", index: 3 } }), people),
    ).toBeNull();
    expect(
      checkFormAgainstSchema(intent({ type: "insert", payload: { name: "people", index: 999999999 } }), people),
    ).toBe("list-index");
    expect(
      checkFormAgainstSchema(
        intent({ type: "update", payload: { name: "people[99999999].name", value: "a" } }),
        people,
      ),
    ).toBe("list-index");
    expect(checkFormAgainstSchema(intent({ type: "insert", payload: { name: "nowhere" } }), people)).toBe(
      "unknown-field",
    );
    expect(checkFormAgainstSchema(form([["__intent__", "{not json"]]), people)).toBe("field-name");
  });

  it("parseSubmission throws the 400 before Conform builds anything", async () => {
    let thrown: unknown;
    try {
      parseSubmission(form([["people[999999999].name", "a"]]), { schema: people });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(Response);
    expect((thrown as Response).status).toBe(400);
    expect(await (thrown as Response).json()).toEqual({ reason: "list-index" });
    const good = parseSubmission(
      form([
        ["legalName", "A"],
        ["people[0].name", "Ana"],
        ["people[0].role", "owner"],
      ]),
      {
        schema: people,
      },
    );
    expect(good.status).toBe("success");
  });
});

describe("the body readers apply the bounds", () => {
  const post = (body: string, type = "application/x-www-form-urlencoded") =>
    new Request("http://acme.localhost/x", { method: "POST", headers: { "content-type": type }, body });

  async function refusal(run: () => Promise<unknown>) {
    try {
      await run();
    } catch (thrown) {
      if (thrown instanceof Response) return { status: thrown.status, body: (await thrown.json()) as unknown };
      throw thrown;
    }
    return null;
  }

  it("readForm: the issue's 60-byte body is a 400, and so are 10,000 empty fields", async () => {
    expect(await refusal(() => readForm(post("legalName=&entityType=company&people%5B999999999%5D.name=a")))).toEqual({
      status: 400,
      body: { reason: "list-index" },
    });
    expect(await refusal(() => readForm(post("a=&".repeat(10_000))))).toEqual({
      status: 400,
      body: { reason: "too-many-fields" },
    });
  });

  it("parseFormBody: a multipart text field of a megabyte is refused though the upload limit is larger", async () => {
    const body = new FormData();
    body.append("kind", "x".repeat(1024 * 1024));
    const request = new Request("http://acme.localhost/x", { method: "POST", body });
    const bytes = new Uint8Array(await request.arrayBuffer());
    expect(await parseFormBody(bytes, request.headers.get("content-type")!)).toEqual({
      ok: false,
      reason: "field-too-long",
    });
  });

  it("readApiBody: a JSON body too deep, a list too long, a form with a sparse index: 400", async () => {
    const deep = JSON.stringify(Array.from({ length: 20 }).reduce<unknown>((inner) => ({ a: inner }), 1));
    const long = JSON.stringify({ items: Array.from({ length: 101 }, () => 1) });
    for (const body of [deep, long]) {
      expect((await refusal(() => readApiBody(post(body, "application/json"))))?.status).toBe(400);
    }
    expect((await refusal(() => readApiBody(post("people%5B999999999%5D.name=a"))))?.status).toBe(400);
    expect(await readApiBody(post(JSON.stringify({ items: [1, 2, 3] }), "application/json"))).toEqual({
      items: [1, 2, 3],
    });
  });

  it("checkJsonShape counts every value", () => {
    expect(checkJsonShape({ a: [1, 2, { b: "c" }] })).toBeNull();
    const wide = Object.fromEntries(Array.from({ length: 2001 }, (_, index) => [`k${index}`, 1]));
    expect(checkJsonShape(wide)).toBe("json-shape");
  });
});
