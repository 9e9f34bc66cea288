/**
 * `npm run draw:verify -- <file>`: checks a published lottery draw offline (issue 35: "a command anyone can run offline
 * [...] that recomputes the winners from the published data"; docs/drops.md, "The lottery: how to check a draw").
 *
 * Reads the draw's JSON file, recomputes the commitment, the registrant list's order and hash, the winners and the
 * waitlist with lib/sale/draw.ts, and prints "verified: ..." (exit 0) or each problem found (exit 1). A missing or
 * unreadable file or one that is not JSON is said in a sentence, exit 2. Needs nothing but Node and this project: no
 * database, no network.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { verifyDraw } from '../lib/sale/draw';

const USAGE = 'usage: npm run draw:verify -- <file>  (a published draw, as downloaded from the sale\'s "verify this draw" page)';

/** Checks the file and answers what to print and the exit status. */
function checkDrawFile(file: string | undefined, cwd: string): { lines: string[]; status: 0 | 1 | 2 } {
  if (!file) return { lines: [USAGE], status: 2 };
  const full = path.resolve(cwd, file);
  let text: string;
  try {
    text = readFileSync(full, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why =
      code === 'ENOENT'
        ? 'there is no such file'
        : code === 'EISDIR'
          ? 'it is a folder'
          : code === 'EACCES'
            ? 'permission denied'
            : String(error);
    return { lines: [`cannot read ${full}: ${why}`], status: 2 };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return { lines: [`${full} is not a JSON file: ${error instanceof Error ? error.message : String(error)}`], status: 2 };
  }
  const result = verifyDraw(json);
  if (!result.ok) {
    return {
      lines: [
        `NOT verified: ${result.problems.length} problem${result.problems.length === 1 ? '' : 's'} in ${full}`,
        ...result.problems.map((p) => `  - ${p}`),
      ],
      status: 1,
    };
  }
  // verifyDraw has checked the shape: these fields are lists.
  const draw = json as { registrants: string[]; winners: string[] };
  return { lines: [`verified: ${draw.registrants.length} registrants, ${draw.winners.length} winners, winners match`], status: 0 };
}

// npm runs scripts in the project's folder; a path typed by the user is relative to where they typed it (INIT_CWD).
const { lines, status } = checkDrawFile(process.argv[2], process.env.INIT_CWD ?? process.cwd());
// The verdict, either way, on stdout; a file that could not be checked on stderr.
(status === 2 ? console.error : console.log)(lines.join('\n'));
process.exitCode = status;
