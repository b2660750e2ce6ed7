import { describe, expect, it } from "vitest";
import { parseSimpleMarkdown } from "./simple-markdown";

describe("parseSimpleMarkdown", () => {
  it("returns no blocks for empty or blank input", () => {
    expect(parseSimpleMarkdown("")).toEqual([]);
    expect(parseSimpleMarkdown("   \n\n\t\n")).toEqual([]);
  });

  it("parses headings of levels 1 to 3", () => {
    expect(parseSimpleMarkdown("# One\n## Two\n### Three")).toEqual([
      { type: "heading", level: 1, text: "One" },
      { type: "heading", level: 2, text: "Two" },
      { type: "heading", level: 3, text: "Three" },
    ]);
  });

  it("trims heading text and tolerates several spaces after the hashes", () => {
    expect(parseSimpleMarkdown("##    Privacy policy   ")).toEqual([
      { type: "heading", level: 2, text: "Privacy policy" },
    ]);
  });

  it("does not treat #### or a hash without a space as a heading", () => {
    expect(parseSimpleMarkdown("#### Four")).toEqual([{ type: "paragraph", text: "#### Four" }]);
    expect(parseSimpleMarkdown("#NoSpace")).toEqual([{ type: "paragraph", text: "#NoSpace" }]);
    expect(parseSimpleMarkdown("#")).toEqual([{ type: "paragraph", text: "#" }]);
  });

  it("joins consecutive lines into one paragraph and splits on blank lines", () => {
    expect(parseSimpleMarkdown("First line\n  second line  \n\nNew paragraph")).toEqual([
      { type: "paragraph", text: "First line second line" },
      { type: "paragraph", text: "New paragraph" },
    ]);
  });

  it("a heading ends the paragraph before it", () => {
    expect(parseSimpleMarkdown("Intro text\n# Title\nBody")).toEqual([
      { type: "paragraph", text: "Intro text" },
      { type: "heading", level: 1, text: "Title" },
      { type: "paragraph", text: "Body" },
    ]);
  });

  it("parses bullets written with - and * into one list", () => {
    expect(parseSimpleMarkdown("- apples\n* pears\n-   plums  ")).toEqual([
      { type: "list", items: ["apples", "pears", "plums"] },
    ]);
  });

  it("needs a space after the bullet marker", () => {
    expect(parseSimpleMarkdown("-nope\n*emphasis*")).toEqual([{ type: "paragraph", text: "-nope *emphasis*" }]);
  });

  it("a list followed directly by a line of text ends the list and starts a paragraph", () => {
    expect(parseSimpleMarkdown("- one\n- two\nAfter the list")).toEqual([
      { type: "list", items: ["one", "two"] },
      { type: "paragraph", text: "After the list" },
    ]);
  });

  it("a list followed by a blank line and text", () => {
    expect(parseSimpleMarkdown("- one\n\nAfter")).toEqual([
      { type: "list", items: ["one"] },
      { type: "paragraph", text: "After" },
    ]);
  });

  it("a paragraph followed directly by bullets ends the paragraph", () => {
    expect(parseSimpleMarkdown("We collect:\n- your name\n- your email")).toEqual([
      { type: "paragraph", text: "We collect:" },
      { type: "list", items: ["your name", "your email"] },
    ]);
  });

  it("a blank line between bullets makes two lists", () => {
    expect(parseSimpleMarkdown("- a\n\n- b")).toEqual([
      { type: "list", items: ["a"] },
      { type: "list", items: ["b"] },
    ]);
  });

  it("handles CRLF and lone CR line endings like LF", () => {
    const lf = "# Title\nLine one\nline two\n\n- a\n- b\n";
    const expected = parseSimpleMarkdown(lf);
    expect(expected).toEqual([
      { type: "heading", level: 1, text: "Title" },
      { type: "paragraph", text: "Line one line two" },
      { type: "list", items: ["a", "b"] },
    ]);
    expect(parseSimpleMarkdown(lf.replace(/\n/g, "\r\n"))).toEqual(expected);
    expect(parseSimpleMarkdown(lf.replace(/\n/g, "\r"))).toEqual(expected);
    for (const block of parseSimpleMarkdown(lf.replace(/\n/g, "\r\n"))) {
      expect(JSON.stringify(block)).not.toContain("\\r");
    }
  });

  it("keeps HTML as literal text (the renderer escapes it)", () => {
    expect(parseSimpleMarkdown("<script>alert(1)</script>")).toEqual([
      { type: "paragraph", text: "<script>alert(1)</script>" },
    ]);
    expect(parseSimpleMarkdown('# <img src=x onerror="alert(1)">\n- <b>bold</b>')).toEqual([
      { type: "heading", level: 1, text: '<img src=x onerror="alert(1)">' },
      { type: "list", items: ["<b>bold</b>"] },
    ]);
  });

  it("does not interpret links or emphasis", () => {
    expect(parseSimpleMarkdown("See [terms](javascript:alert(1)) and **this**")).toEqual([
      { type: "paragraph", text: "See [terms](javascript:alert(1)) and **this**" },
    ]);
  });

  it("preserves unicode text", () => {
    expect(parseSimpleMarkdown("# Política de privacidad 🔒\nNgā mihi — 日本語\n- café ✓")).toEqual([
      { type: "heading", level: 1, text: "Política de privacidad 🔒" },
      { type: "paragraph", text: "Ngā mihi — 日本語" },
      { type: "list", items: ["café ✓"] },
    ]);
  });

  it("produces only the three block types", () => {
    const blocks = parseSimpleMarkdown("# a\nb\n- c\n#### d\n> e\n```\nf\n```");
    for (const block of blocks) expect(["heading", "paragraph", "list"]).toContain(block.type);
  });
});
