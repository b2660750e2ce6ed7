import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { expect, type TestInfo } from "@playwright/test";

/** The first page as a picture, kept with the results (poppler-utils' pdftoppm; CI installs it). */
export async function keepFirstPage(testInfo: TestInfo, file: string, name: string) {
  const pdftoppm = "/usr/bin/pdftoppm";
  if (!existsSync(pdftoppm)) {
    expect(process.env.CI, "CI installs poppler-utils (.ci/run)").toBeFalsy();
    testInfo.annotations.push({ type: "note", description: "no pdftoppm here: the first page is not pictured" });
    return;
  }
  const prefix = testInfo.outputPath(name);
  execFileSync(pdftoppm, ["-png", "-r", "80", "-f", "1", "-l", "1", "-singlefile", file, prefix]);
  await testInfo.attach(`${name}-pdf-page-1`, { path: `${prefix}.png`, contentType: "image/png" });
}
