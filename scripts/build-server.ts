/**
 * Compiles the entry server (server.ts and what it imports outside Next's bundles: lib/env, lib/security/forwarded,
 * lib/server/buy-lane, lib/server/entry-guard, ...) into one plain JavaScript file, so `npm start` runs
 * `node .next-server/server.js` with no TypeScript compiler in the production process (issue 34: tsx compiled every
 * file it loaded at start and kept its loader hooked into every require). Packages stay in node_modules (`external`):
 * the file holds only our own code, and Next, React and the drivers load as they always do.
 *
 * Part of `npm run build` (after `next build`); scripts/build-if-needed.ts runs it again when server.ts or one of the
 * files it imports is newer than the compiled file, from the list of inputs written beside it.
 */
import { buildSync } from 'esbuild';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** Where the compiled entry server lives (ignored by git, prettier and eslint as every `.next*` folder is). */
export const SERVER_OUT_DIR = '.next-server';
export const SERVER_OUT = path.join(SERVER_OUT_DIR, 'server.js');
/** The source files the compiled server was made from (esbuild's inputs), for scripts/build-if-needed.ts. */
export const SERVER_INPUTS = path.join(SERVER_OUT_DIR, 'inputs.json');

/** Compiles server.ts under `root` into `root/.next-server/server.js`; returns the source files it read. */
export function buildServer(root = process.cwd()): string[] {
  const result = buildSync({
    absWorkingDir: root,
    entryPoints: ['server.ts'],
    outfile: SERVER_OUT,
    bundle: true,
    platform: 'node',
    // The same module system tsx gave server.ts (package.json has no "type"): Next and its handler are CommonJS.
    format: 'cjs',
    target: 'node20',
    packages: 'external',
    // No minifying: an operator reading a stack trace sees our names and esbuild's `// lib/...` file markers.
    minify: false,
    metafile: true,
    logLevel: 'warning',
    banner: { js: '// Compiled from server.ts by scripts/build-server.ts (npm run build). Do not edit.' },
  });
  const inputs = Object.keys(result.metafile.inputs).sort();
  mkdirSync(path.join(root, SERVER_OUT_DIR), { recursive: true });
  writeFileSync(path.join(root, SERVER_INPUTS), JSON.stringify(inputs, null, 2) + '\n');
  return inputs;
}

/**
 * Whether the compiled server is missing or older than server.ts or any file it was compiled from (a file gone
 * counts as changed: the imports moved).
 */
export function serverNeedsBuild(root = process.cwd()): boolean {
  const out = path.join(root, SERVER_OUT);
  const inputsFile = path.join(root, SERVER_INPUTS);
  if (!existsSync(out) || !existsSync(inputsFile)) return true;
  const built = statSync(out).mtimeMs;
  let inputs: unknown;
  try {
    inputs = JSON.parse(readFileSync(inputsFile, 'utf8'));
  } catch {
    return true;
  }
  if (!Array.isArray(inputs)) return true;
  return ['server.ts', ...inputs].some((input) => {
    const file = path.join(root, String(input));
    return !existsSync(file) || statSync(file).mtimeMs > built;
  });
}

// `tsx scripts/build-server.ts` (the second half of `npm run build`).
if (/build-server\.ts$/.test(process.argv[1] ?? '')) {
  const started = Date.now();
  try {
    const inputs = buildServer();
    console.log(`compiled the entry server: ${SERVER_OUT} (${inputs.length} files, ${Date.now() - started} ms)`);
  } catch {
    process.exit(1); // esbuild has printed what failed (logLevel)
  }
}
