/**
 * V8's explicit compile hint on every built script (issue 34: the goods page hydrated on a slow phone, Lighthouse's
 * blocking time; figures in docs/benchmarks.md, "Scripts compiled while they download"). A script that starts with
 * the comment `//# allFunctionsCalledOnLoad` has all its functions compiled when the script itself is, which for an
 * async script is on a background thread while it downloads (Chromium 136 and later; other engines read a comment).
 *
 * Without it V8 compiles a function the first time it is called. Turbopack wraps each module in a function, React DOM
 * in one of them, and the app's start calls them all in one task on the main thread: on the goods page, 65–100 ms of
 * that task (the first load, a desktop core) was compiling them there; with the hint, 31–44 ms. On a phone 4 × slower
 * that is the gap between the last script's arrival and a page that answers.
 *
 * Every script of the build gets it: the first load's chunks are all run at once, and a chunk loaded later (the
 * image viewer, a sheet, the console's pages) is loaded because it is about to run. Part of the post-build step
 * (scripts/compress-static.ts), before the scripts are compressed and tagged, so Next, the static door and every
 * compressed copy serve the same bytes. The file's bytes are kept as they are after the hint. Idempotent: a script
 * that has the hint keeps one; a script that must start otherwise (`#!`) is left alone. No source maps are built for
 * the browser; if they were, theirs would be a line off.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export const COMPILE_HINT = '//# allFunctionsCalledOnLoad\n';
const HINT = Buffer.from(COMPILE_HINT);
const SHEBANG = Buffer.from('#!');

/**
 * Puts the compile hint at the top of each `.js` of `files` (paths under `folder`, as compress-static lists them);
 * returns how many scripts gained it.
 */
export function addCompileHints(folder: string, files: readonly string[]): number {
  let added = 0;
  for (const file of files.filter((name) => name.endsWith('.js')).map((name) => path.join(folder, name))) {
    const content = readFileSync(file);
    if (content.subarray(0, HINT.length).equals(HINT) || content.subarray(0, 2).equals(SHEBANG)) continue;
    writeFileSync(file, Buffer.concat([HINT, content]));
    added++;
  }
  return added;
}
