import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { answerStaticAtTheDoor, COMPRESSED_DIR, COMPRESSED_LIST, loadStaticDoor, unloadStaticDoor } from '../lib/server/static-door';
import { staticNeedsCompressing } from './build-if-needed';
import { COMPILE_HINT } from './compile-hints';
import { compressStatic } from './compress-static';

// A built file the size of a small chunk, with the repetition a script has.
const SCRIPT = Buffer.from(
  Array.from({ length: 300 }, (_, i) => `function island${i}(props){return props.sale${i % 7}??"售罄";}`).join('\n'),
);
const STYLE = Buffer.from('.buy-bar{background:var(--skin-primary)}'.repeat(60));
/** A small script whose bytes are not UTF-8 (a Latin-1 "é"): kept byte for byte after the hint. */
const LATIN1_SCRIPT = Buffer.from([0x73, 0x65, 0x6c, 0x66, 0x2e, 0x7a, 0x3d, 0x22, 0xe9, 0x22]);
/** The script as served: V8's compile hint first (scripts/compile-hints.ts). */
const SERVED_SCRIPT = Buffer.concat([Buffer.from(COMPILE_HINT), SCRIPT]);

type Answer = { status: number; headers: Record<string, string | string[] | undefined>; body: Buffer };

describe('the static door (issue 34)', () => {
  let dist: string;
  let server: Server;
  let port: number;

  beforeAll(async () => {
    dist = mkdtempSync(path.join(tmpdir(), 'static-door-'));
    writeFileSync(path.join(dist, 'BUILD_ID'), 'build-1\n');
    mkdirSync(path.join(dist, 'static/chunks'), { recursive: true });
    mkdirSync(path.join(dist, 'static/media'), { recursive: true });
    writeFileSync(path.join(dist, 'static/chunks/a1b2.js'), SCRIPT);
    writeFileSync(path.join(dist, 'static/chunks/page.css'), STYLE);
    writeFileSync(path.join(dist, 'static/chunks/tiny.js'), 'self.x=1');
    writeFileSync(path.join(dist, 'static/chunks/bytes.js'), LATIN1_SCRIPT);
    writeFileSync(path.join(dist, 'static/chunks/tool.js'), '#!/usr/bin/env node\nself.y=2');
    writeFileSync(path.join(dist, 'static/media/font.woff2'), Buffer.alloc(4096, 7));
    await compressStatic(dist);
    // Next stands behind the door: whatever the door leaves is answered "next".
    server = createServer((req, res) => {
      if (answerStaticAtTheDoor(req, res)) return;
      res.setHeader('x-answered-by', 'next');
      res.end('next');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });

  afterAll(async () => {
    unloadStaticDoor();
    await new Promise((resolve) => server.close(resolve));
    rmSync(dist, { recursive: true, force: true });
  });

  beforeEach(() => {
    expect(loadStaticDoor(dist)).toBe(2); // the script and the style; not the tiny script, not the font
  });

  function get(pathname: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Answer> {
    return new Promise((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, path: pathname, method, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      });
      req.on('error', reject);
      req.end();
    });
  }

  it('answers a browser that takes brotli with the file in brotli, immutable, from memory', async () => {
    const answer = await get('/_next/static/chunks/a1b2.js', { 'accept-encoding': 'gzip, deflate, br, zstd' });
    expect(answer.status).toBe(200);
    expect(answer.headers['content-encoding']).toBe('br');
    expect(answer.headers['content-type']).toBe('application/javascript; charset=UTF-8');
    expect(answer.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(answer.headers.vary).toBe('Accept-Encoding');
    expect(brotliDecompressSync(answer.body).equals(SERVED_SCRIPT)).toBe(true);
  });

  it('answers gzip-only clients with a gzip smaller than zlib’s best', async () => {
    const answer = await get('/_next/static/chunks/a1b2.js', { 'accept-encoding': 'gzip' });
    expect(answer.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(answer.body).equals(SERVED_SCRIPT)).toBe(true);
    expect(answer.body.length).toBeLessThanOrEqual(gzipSync(SERVED_SCRIPT, { level: 9 }).length);
    const style = await get('/_next/static/chunks/page.css', { 'accept-encoding': 'br;q=0, gzip' });
    expect([style.headers['content-encoding'], style.headers['content-type']]).toEqual(['gzip', 'text/css; charset=UTF-8']);
    expect(gunzipSync(style.body).equals(STYLE)).toBe(true);
  });

  it('gives every script V8’s compile hint, once, in the file Next serves and in each compressed copy', async () => {
    // Compressing again (a build prepared twice) keeps one hint.
    await compressStatic(dist);
    expect(loadStaticDoor(dist)).toBe(2);
    expect(readFileSync(path.join(dist, 'static/chunks/a1b2.js')).equals(SERVED_SCRIPT)).toBe(true);
    expect(readFileSync(path.join(dist, 'static/chunks/tiny.js'), 'utf8')).toBe(`${COMPILE_HINT}self.x=1`);
    expect(readFileSync(path.join(dist, 'static/chunks/page.css')).equals(STYLE)).toBe(true); // a style is left as it is
    expect(readFileSync(path.join(dist, 'static/chunks/bytes.js')).equals(Buffer.concat([Buffer.from(COMPILE_HINT), LATIN1_SCRIPT]))).toBe(
      true,
    );
    expect(readFileSync(path.join(dist, 'static/chunks/tool.js'), 'utf8')).toBe('#!/usr/bin/env node\nself.y=2'); // must start with #!
    const gzip = await get('/_next/static/chunks/a1b2.js', { 'accept-encoding': 'gzip' });
    expect(gunzipSync(gzip.body).equals(SERVED_SCRIPT)).toBe(true);
  });

  it('answers a revalidation with 304 and a HEAD with no body', async () => {
    const first = await get('/_next/static/chunks/a1b2.js', { 'accept-encoding': 'br' });
    const etag = String(first.headers.etag);
    const again = await get('/_next/static/chunks/a1b2.js', { 'accept-encoding': 'br', 'if-none-match': etag });
    expect([again.status, again.body.length]).toEqual([304, 0]);
    // The gzip answer has its own tag: a cached brotli body is not offered to a client asking for gzip.
    const gzip = await get('/_next/static/chunks/a1b2.js', { 'accept-encoding': 'gzip', 'if-none-match': etag });
    expect(gzip.status).toBe(200);
    const head = await get('/_next/static/chunks/a1b2.js', { 'accept-encoding': 'br' }, 'HEAD');
    expect([head.status, head.headers['content-length'], head.body.length]).toEqual([200, String(first.body.length), 0]);
  });

  it('leaves to Next what it does not hold or cannot answer as asked', async () => {
    const next = async (pathname: string, headers: Record<string, string> = { 'accept-encoding': 'br, gzip' }, method = 'GET') =>
      (await get(pathname, headers, method)).headers['x-answered-by'];
    expect(await next('/_next/static/chunks/a1b2.js', {})).toBe('next'); // takes neither coding
    expect(await next('/_next/static/chunks/a1b2.js', { 'accept-encoding': 'identity' })).toBe('next');
    expect(await next('/_next/static/chunks/a1b2.js', { 'accept-encoding': 'br', range: 'bytes=0-10' })).toBe('next');
    expect(await next('/_next/static/chunks/a1b2.js?v=1')).toBe('next');
    expect(await next('/_next/static/chunks/%611b2.js')).toBe('next');
    expect(await next('/_next/static/media/../chunks/a1b2.js')).toBe('next');
    expect(await next('/_next/static/chunks/tiny.js')).toBe('next');
    expect(await next('/_next/static/media/font.woff2')).toBe('next');
    expect(await next('/_next/static/chunks/gone.js')).toBe('next');
    expect(await next('/_next/static/chunks/a1b2.js', undefined, 'POST')).toBe('next');
  });

  it('has a build prepared again when its files were compressed before the compile hint', () => {
    const root = path.dirname(dist);
    const before = process.env.NEXT_DIST_DIR;
    process.env.NEXT_DIST_DIR = path.basename(dist);
    const listFile = path.join(dist, COMPRESSED_DIR, COMPRESSED_LIST);
    const list = readFileSync(listFile, 'utf8');
    try {
      expect(staticNeedsCompressing(root)).toBe(false);
      const { compileHints: _hints, ...older } = JSON.parse(list) as Record<string, unknown>;
      void _hints;
      writeFileSync(listFile, JSON.stringify(older));
      expect(staticNeedsCompressing(root)).toBe(true);
    } finally {
      writeFileSync(listFile, list);
      if (before === undefined) delete process.env.NEXT_DIST_DIR;
      else process.env.NEXT_DIST_DIR = before;
    }
  });

  it('holds nothing for another build: a `next build` since, not yet compressed', async () => {
    writeFileSync(path.join(dist, 'BUILD_ID'), 'build-2\n');
    try {
      expect(loadStaticDoor(dist)).toBe(0);
      expect((await get('/_next/static/chunks/a1b2.js', { 'accept-encoding': 'br' })).headers['x-answered-by']).toBe('next');
    } finally {
      writeFileSync(path.join(dist, 'BUILD_ID'), 'build-1\n');
    }
  });
});
