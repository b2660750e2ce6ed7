import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

/**
 * Every input is bounded before it is parsed (CONVENTIONS.md, "Edges"; issue 28): every zod
 * string, array, set and record the app builds says how big it may be. This reads every .ts
 * and .tsx file under app/ (tests excepted) with the TypeScript parser, finds each place a
 * schema of one of those kinds is made and follows the method chain written on it:
 *
 * - `z.string()`, `z.coerce.string()` (and so `z.string().email()`, `.url()`, `.uuid()`,
 *   `.regex()`, `.datetime()` …) need `.max(n)` or `.length(n)` in the chain. A regex or a
 *   format is not a bound: zod reads the whole string to test it.
 * - `z.array(x)` and `x.array()` need `.max(n)` or `.length(n)`; `z.set(x)` `.max(n)` or `.size(n)`.
 * - `z.record(…)` has no `.max` in zod 3, so it needs a `.refine` or `.superRefine` in the chain
 *   that counts its keys (`Object.keys(…)` in the check). Its key and value schemas are schemas
 *   like any other and are checked on their own; a string used as a record key is not excused,
 *   as a key a client sends can be as long as a value.
 *
 * The chain is followed only while it is still the same schema: `z.string().array().max(5)`
 * bounds the list, not its strings, so the walk stops at `.array()`, `.or()`, `.optional()` and
 * the other methods that wrap a schema in another. Numbers, booleans, enums, literals, dates and
 * the rest are bounded by what they are and are not read. The bound must be written where the
 * schema is made: a helper that returns `z.string()` for its callers to bound is reported, so
 * such helpers take the maximum as a parameter or carry a generous one of their own.
 */
type Finding = { file: string; line: number; code: string };

type Kind = "string" | "array" | "set" | "record";

const CONSTRUCTORS = new Set<string>(["string", "array", "set", "record"]);

/** Methods that make a different schema around this one: a bound after them is not this schema's. */
const WRAPPERS = new Set([
  "array",
  "or",
  "and",
  "pipe",
  "optional",
  "nullable",
  "nullish",
  "default",
  "catch",
  "transform",
  "brand",
  "readonly",
  "promise",
]);

const BOUNDS: Record<Kind, Set<string>> = {
  string: new Set(["max", "length"]),
  array: new Set(["max", "length"]),
  set: new Set(["max", "size"]),
  record: new Set(["refine", "superRefine"]),
};

export function findUnboundedZod(fileName: string, source: string): Finding[] {
  const kind = fileName.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true, kind);

  // The names zod is imported under: `import { z } from "zod"`, `import * as z from "zod"`,
  // and constructors imported by name (`import { string as zString } from "zod"`).
  const namespaces = new Set<string>();
  const namedConstructors = new Map<string, Kind>();
  for (const statement of file.statements) {
    if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier)) continue;
    if (statement.moduleSpecifier.text !== "zod" || !statement.importClause) continue;
    const { name, namedBindings } = statement.importClause;
    if (name) namespaces.add(name.text);
    if (namedBindings && ts.isNamespaceImport(namedBindings)) namespaces.add(namedBindings.name.text);
    if (namedBindings && ts.isNamedImports(namedBindings)) {
      for (const element of namedBindings.elements) {
        const imported = (element.propertyName ?? element.name).text;
        if (imported === "z") namespaces.add(element.name.text);
        else if (CONSTRUCTORS.has(imported)) namedConstructors.set(element.name.text, imported as Kind);
      }
    }
  }
  const isZod = (node: ts.Expression) => ts.isIdentifier(node) && namespaces.has(node.text);

  /** What kind of schema this call makes, if it makes one this check reads. */
  const constructs = (call: ts.CallExpression): Kind | undefined => {
    const callee = call.expression;
    if (ts.isIdentifier(callee)) return namedConstructors.get(callee.text);
    if (!ts.isPropertyAccessExpression(callee)) return undefined;
    const method = callee.name.text;
    const target = callee.expression;
    if (isZod(target) && CONSTRUCTORS.has(method)) return method as Kind;
    // z.coerce.string()
    if (method === "string" && ts.isPropertyAccessExpression(target) && target.name.text === "coerce") {
      if (isZod(target.expression)) return "string";
    }
    // schema.array(): no other `.array()` with no arguments is called in app/.
    if (method === "array" && call.arguments.length === 0 && !isZod(target)) return "array";
    return undefined;
  };

  const isBounded = (call: ts.CallExpression, what: Kind): boolean => {
    let node: ts.Expression = call;
    for (;;) {
      const access = node.parent;
      if (!access || !ts.isPropertyAccessExpression(access) || access.expression !== node) return false;
      const next = access.parent;
      if (!next || !ts.isCallExpression(next) || next.expression !== access) return false;
      const method = access.name.text;
      if (WRAPPERS.has(method)) return false;
      if (BOUNDS[what].has(method)) {
        if (what !== "record") return true;
        if (next.arguments.some((argument) => /\bObject\.keys\(/.test(argument.getText(file)))) return true;
      }
      node = next;
    }
  };

  const findings: Finding[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node)) {
      const what = constructs(node);
      if (what && !isBounded(node, what)) {
        const { line } = file.getLineAndCharacterOfPosition(node.getStart(file));
        const code = node.getText(file).replace(/\s+/g, " ");
        findings.push({ file: fileName, line: line + 1, code: code.length > 120 ? `${code.slice(0, 117)}…` : code });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return findings;
}

function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(directory, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    const source = /\.tsx?$/.test(entry.name) && !entry.name.endsWith(".d.ts");
    return source && !entry.name.includes(".test.") ? [full] : [];
  });
}

describe("every zod string, array, set and record is bounded (issue 28)", () => {
  it("finds none unbounded under app/", () => {
    const app = path.resolve(__dirname, "..");
    const files = sourceFiles(app);
    expect(files.length).toBeGreaterThan(100);
    const findings = files.flatMap((file) => findUnboundedZod(path.relative(app, file), readFileSync(file, "utf8")));
    expect(findings.map((f) => `app/${f.file}:${f.line} ${f.code}`)).toEqual([]);
  });

  it("reports each unbounded kind, and nothing that is bounded or needs no bound", () => {
    const source = `
      import { z } from "zod";
      const item = z.object({ id: z.string().max(36) });
      export const schema = z.object({
        name: z.string(),
        email: z.string().trim().email().optional(),
        coerced: z.coerce.string(),
        tags: z.array(z.string().max(20)),
        ids: item.array(),
        words: z.string().array().max(5),
        seen: z.set(z.number()),
        extra: z.record(z.string().max(40), z.string().max(200)),
        counted: z
          .record(z.string().max(40), z.string().max(200))
          .refine((r) => Object.keys(r).length <= 20),
        refinedOtherwise: z.record(z.string().max(40), z.string().max(200)).refine((r) => r !== null),
        fine: z.string().min(1).max(254).email(),
        exact: z.string().length(4).regex(/^\\d+$/),
        list: z.array(item).min(1).max(100),
        uniques: z.set(z.string().max(5)).size(3),
        pinned: z.array(z.number()).length(2),
        amount: z.number().int().max(100),
        count: z.coerce.number(),
        flag: z.boolean(),
        colour: z.enum(["red", "blue"]),
        kind: z.literal("card"),
        when: z.date(),
      });
    `;
    const codes = findUnboundedZod("sample.ts", source).map((f) => `${f.line} ${f.code}`);
    expect(codes).toEqual([
      "5 z.string()",
      "6 z.string()",
      "7 z.coerce.string()",
      "8 z.array(z.string().max(20))",
      "9 item.array()",
      "10 z.string()",
      "11 z.set(z.number())",
      "12 z.record(z.string().max(40), z.string().max(200))",
      "16 z.record(z.string().max(40), z.string().max(200))",
    ]);
  });

  it("knows zod under other names and constructors imported one by one", () => {
    const source = `
      import * as zod from "zod";
      import { string as text, array } from "zod";
      const a = zod.string();
      const b = text().max(10);
      const c = array(text().max(10));
      const d = z.string();
    `;
    // `z` is not imported here, so `z.string()` is someone else's.
    expect(findUnboundedZod("other.ts", source).map((f) => f.code)).toEqual(["zod.string()", "array(text().max(10))"]);
  });
});
