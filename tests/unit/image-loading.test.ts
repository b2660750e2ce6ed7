import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * Spec §9 and decision 094: an image or frame below the first screen loads lazily, one in it at once. Every
 * `<img>` and `<iframe>` the app draws says which (`loading="lazy"` or `"eager"`), so a new one cannot
 * leave it to chance.
 */
function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx$/.test(entry.name) && !entry.name.includes(".test.") ? [full] : [];
  });
}

/** The opening tags of `<img>` and `<iframe>` elements, across lines, up to the first `>` not inside braces. */
function openingTags(source: string): { tag: string; line: number }[] {
  const found: { tag: string; line: number }[] = [];
  for (const match of source.matchAll(/<(img|iframe)\b/g)) {
    let depth = 0;
    let end = match.index;
    for (; end < source.length; end++) {
      const c = source[end];
      if (c === "{") depth++;
      else if (c === "}") depth--;
      else if (c === ">" && depth === 0) break;
    }
    found.push({ tag: source.slice(match.index, end + 1), line: source.slice(0, match.index).split("\n").length });
  }
  return found;
}

describe("every image and frame says how it loads", () => {
  const tags = sourceFiles(path.join(process.cwd(), "app")).flatMap((file) =>
    openingTags(fs.readFileSync(file, "utf8")).map((tag) => ({ ...tag, file: path.relative(process.cwd(), file) })),
  );

  it("finds the app's images and frames", () => {
    expect(tags.length).toBeGreaterThanOrEqual(5);
  });

  it('each has loading="lazy" or loading="eager"', () => {
    const unsaid = tags.filter(({ tag }) => !/\bloading=("(lazy|eager)"|\{eager \? "eager" : "lazy"\})/.test(tag));
    expect(unsaid.map(({ file, line }) => `${file}:${line}`)).toEqual([]);
  });

  it("the header's logo, in every page's first screen, is not lazy", () => {
    const logo = tags.find(({ file, tag }) => file.endsWith("AppShell.tsx") && tag.startsWith("<img"));
    expect(logo?.tag).toMatch(/loading="eager"/);
  });
});
