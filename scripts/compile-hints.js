/**
 * V8's explicit compile hint (decision 049): a script that begins with the magic comment
 * `//# allFunctionsCalledOnLoad` is compiled whole while it streams in, off the main thread.
 * Without it, esbuild's CommonJS wrappers (React DOM's whole source is one such function) are
 * compiled lazily, on the main thread, the moment the module graph runs: on a phone 6× slower
 * than a laptop that is one long task of about 200 ms before the page can answer a tap.
 *
 * The build's large chunks get the comment, once (the step is idempotent, and writes through a
 * temporary file and a rename, so processes starting together cannot leave half a file). Browsers
 * that do not know the hint read a comment.
 */
import fs from "node:fs";
import path from "node:path";

export const COMPILE_HINT = "//# allFunctionsCalledOnLoad\n";
/** Chunks this large or larger are the framework's (React DOM, the router); route chunks are a few KB. */
export const HINT_MIN_BYTES = 64 * 1024;

/** Adds the hint to every large `.js` file under the build's assets directory; returns the files changed. */
export function addCompileHints(assetsDirectory) {
  const changed = [];
  for (const file of listScripts(assetsDirectory)) {
    const text = fs.readFileSync(file, "utf8");
    if (text.length < HINT_MIN_BYTES || text.startsWith(COMPILE_HINT)) continue;
    const temporary = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(temporary, COMPILE_HINT + text);
    fs.renameSync(temporary, file);
    changed.push(path.relative(assetsDirectory, file));
  }
  return changed;
}

function listScripts(directory) {
  if (!fs.existsSync(directory)) return [];
  return fs.readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(directory, entry.name);
    if (entry.isDirectory()) return listScripts(full);
    return entry.isFile() && entry.name.endsWith(".js") ? [full] : [];
  });
}
