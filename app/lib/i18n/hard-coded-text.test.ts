import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

/**
 * Every word a page shows must come from the message files (issue 7: every user-facing
 * string exists in both languages). This reads the JSX of routes and components with the
 * TypeScript parser and reports text a person would read that is written into the code:
 * text between tags, string literals rendered as children (also inside `a ? "x" : "y"`
 * and `a && "x"`), user-facing attributes (aria-label, title, placeholder, label, …) and
 * the `title` of `meta`. Text with no word in it (" · ", "–", "CSV"-less punctuation) is
 * fine. Values that are not text nodes (a class name, a URL, an input's `value`) are not
 * read, so the check has no false alarms to silence.
 */
const USER_FACING_ATTRIBUTES = new Set([
  "aria-label",
  "aria-description",
  "aria-roledescription",
  "aria-valuetext",
  "title",
  "placeholder",
  "alt",
  "label",
  "hint",
  "eyebrow",
  "fallbackTitle",
  "text",
]);

const WORD = /[A-Za-z]{2,}/;

type Finding = { file: string; line: number; text: string };

export function findHardCodedText(fileName: string, source: string): Finding[] {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const findings: Finding[] = [];
  const report = (node: ts.Node, text: string) => {
    const { line } = file.getLineAndCharacterOfPosition(node.getStart(file));
    findings.push({ file: fileName, line: line + 1, text: text.trim().replace(/\s+/g, " ") });
  };

  /** Reports literal text that an expression would render as it is. */
  const checkRendered = (expression: ts.Expression | undefined): void => {
    if (!expression) return;
    if (ts.isStringLiteral(expression) || ts.isNoSubstitutionTemplateLiteral(expression)) {
      if (WORD.test(expression.text)) report(expression, expression.text);
    } else if (ts.isTemplateExpression(expression)) {
      const parts = [expression.head.text, ...expression.templateSpans.map((span) => span.literal.text)];
      if (parts.some((part) => WORD.test(part))) report(expression, parts.join("…"));
    } else if (ts.isParenthesizedExpression(expression)) {
      checkRendered(expression.expression);
    } else if (ts.isConditionalExpression(expression)) {
      checkRendered(expression.whenTrue);
      checkRendered(expression.whenFalse);
    } else if (ts.isBinaryExpression(expression)) {
      const operator = expression.operatorToken.kind;
      if (operator === ts.SyntaxKind.AmpersandAmpersandToken) checkRendered(expression.right);
      if (operator === ts.SyntaxKind.BarBarToken || operator === ts.SyntaxKind.QuestionQuestionToken) {
        checkRendered(expression.left);
        checkRendered(expression.right);
      }
    }
  };

  const visit = (node: ts.Node, inMeta: boolean): void => {
    if (ts.isJsxText(node)) {
      if (WORD.test(node.text)) report(node, node.text);
    } else if (ts.isJsxExpression(node) && (ts.isJsxElement(node.parent) || ts.isJsxFragment(node.parent))) {
      checkRendered(node.expression);
    } else if (ts.isJsxAttribute(node) && USER_FACING_ATTRIBUTES.has(node.name.getText(file))) {
      const value = node.initializer;
      if (value && ts.isStringLiteral(value)) checkRendered(value);
      else if (value && ts.isJsxExpression(value)) checkRendered(value.expression);
    } else if (inMeta && ts.isPropertyAssignment(node) && node.name.getText(file) === "title") {
      checkRendered(node.initializer);
    }
    const meta = inMeta || (ts.isVariableDeclaration(node) && node.name.getText(file) === "meta");
    ts.forEachChild(node, (child) => visit(child, meta));
  };
  visit(file, false);
  return findings;
}

function tsxFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(directory, entry.name);
    if (entry.isDirectory()) return tsxFiles(full);
    return entry.name.endsWith(".tsx") && !entry.name.includes(".test.") ? [full] : [];
  });
}

describe("no hard-coded user-facing text in JSX", () => {
  it("finds none in app/routes, app/components and app/root.tsx", () => {
    const app = path.resolve(__dirname, "../..");
    const files = [
      // The PayTo sandbox bank stands in for a third party's app: English only, not the portal's text.
      ...tsxFiles(path.join(app, "routes")).filter((file) => !file.endsWith(path.join("sandbox+", "payto-bank.tsx"))),
      ...tsxFiles(path.join(app, "components")),
      path.join(app, "root.tsx"),
    ];
    expect(files.length).toBeGreaterThan(20);
    const findings = files.flatMap((file) => findHardCodedText(path.relative(app, file), readFileSync(file, "utf8")));
    expect(findings.map((f) => `${f.file}:${f.line} "${f.text}"`)).toEqual([]);
  });

  it("catches each kind of hard-coded text it looks for", () => {
    const source = `
      export default function Page({ busy, n }: { busy: boolean; n: number }) {
        return (
          <main aria-label="Main area">
            <h1>Sign in</h1>
            <p>{busy ? "Signing in…" : t("auth.signin.submit")}</p>
            <p>{busy && \`Wait \${n} seconds\`}</p>
            <Field label={"Email"} hint="At least ten" />
            <input placeholder="name@example.com" value="kept-as-value" className="not text" />
            <span>{" · "}</span>
          </main>
        );
      }
      export const meta = ({ data }) => [{ title: data ? \`Sign in · \${data.name}\` : "Page not found" }];
    `;
    const texts = findHardCodedText("sample.tsx", source).map((f) => f.text);
    expect(texts).toEqual([
      "Main area",
      "Sign in",
      "Signing in…",
      "Wait … seconds",
      "Email",
      "At least ten",
      "name@example.com",
      "Sign in · …",
      "Page not found",
    ]);
  });
});
