/**
 * Prepares Next's built scripts and styles once, for the static door (lib/server/static-door.ts; issue 34): V8's compile
 * hint at the top of every script (scripts/compile-hints.ts), then each text file of `<dist>/static` of at least 1 kB
 * compressed, in brotli at quality 11 and in gzip by zopfli, into
 * `<dist>/compressed-static/`, with the list of files and the build they belong to. Part of `npm run build`, after
 * `next build` (scripts/build-if-needed.ts runs it after the builds it makes); about 10 s on a 2-core machine.
 */
import { gzipAsync } from '@gfx/zopfli';
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants } from 'node:zlib';
import { addCompileHints } from './compile-hints';
import {
  COMPRESS_FROM_BYTES,
  COMPRESSED_DIR,
  COMPRESSED_LIST,
  COMPRESSED_TYPES,
  contentTag,
  type CompressedList,
} from '../lib/server/static-door';

function filesUnder(folder: string, base = folder): string[] {
  return readdirSync(folder).flatMap((name) => {
    const full = path.join(folder, name);
    return statSync(full).isDirectory() ? filesUnder(full, base) : [path.relative(base, full).split(path.sep).join('/')];
  });
}

/** Compresses the static files of the build in `distDir`; returns the list written. */
export async function compressStatic(distDir: string): Promise<CompressedList> {
  const source = path.join(distDir, 'static');
  const files = filesUnder(source).sort();
  addCompileHints(source, files);
  const target = path.join(distDir, COMPRESSED_DIR);
  rmSync(target, { recursive: true, force: true });
  const list: CompressedList = {
    buildId: readFileSync(path.join(distDir, 'BUILD_ID'), 'utf8').trim(),
    files: [],
    compileHints: true,
  };
  for (const file of files) {
    if (!COMPRESSED_TYPES[path.extname(file)]) continue;
    const content = readFileSync(path.join(source, file));
    if (content.length < COMPRESS_FROM_BYTES) continue;
    const br = brotliCompressSync(content, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_SIZE_HINT]: content.length,
      },
    });
    const gzip = Buffer.from(await gzipAsync(content, { numiterations: 15 }));
    const stored = path.join(target, file);
    mkdirSync(path.dirname(stored), { recursive: true });
    writeFileSync(`${stored}.br`, br);
    writeFileSync(`${stored}.gz`, gzip);
    list.files.push({ path: file, etag: contentTag(content) });
  }
  // The list last: a build stopped half-way leaves no list, and the door holds nothing.
  writeFileSync(path.join(target, COMPRESSED_LIST), JSON.stringify(list) + '\n');
  return list;
}

// `tsx scripts/compress-static.ts` (in `npm run build`).
if (/compress-static\.ts$/.test(process.argv[1] ?? '')) {
  const started = Date.now();
  compressStatic(process.env.NEXT_DIST_DIR ?? '.next').then(
    (list) => console.log(`compressed the static files: ${list.files.length} files, ${Date.now() - started} ms`),
    (error: unknown) => {
      console.error('compressing the static files failed:', error);
      process.exit(1);
    },
  );
}
