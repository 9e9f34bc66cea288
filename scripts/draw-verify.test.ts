import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { canonicalJson, runDraw } from '../lib/sale/draw';

// `npm run draw:verify -- <file>` as anyone runs it offline (issue 35): a published draw verifies (exit 0), a tampered one
// says what differs (exit 1), a file that cannot be checked says why (exit 2).

const root = path.resolve(__dirname, '..');
let dir: string;
beforeAll(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'storefront-draw-'))));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function verify(file: string): Promise<{ status: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      'npx',
      ['tsx', 'scripts/draw-verify.ts', file],
      { cwd: root, env: { ...process.env, INIT_CWD: root } },
      (error, stdout, stderr) => resolve({ status: error ? Number(error.code) : 0, stdout, stderr }),
    );
  });
}

const draw = runDraw({
  saleId: '42',
  channelKey: 'AURORA',
  copies: 3,
  seed: 'a3'.repeat(32),
  publicValue: '上证指数 2026-12-20 15:00 收盘 3398.12',
  publicValueSource: 'The SSE Composite Index (上证指数) close on 2026-12-20, as sse.com.cn publishes it',
  accountNumbers: Array.from({ length: 12 }, (_, i) => String(3_000_000_000 + i * 104_729)),
});

it('verifies a draw as published', async () => {
  const file = path.join(dir, 'draw.json');
  fs.writeFileSync(file, canonicalJson(draw));
  expect(await verify(file)).toEqual({ status: 0, stdout: 'verified: 12 registrants, 3 winners, winners match\n', stderr: '' });
});

it('says what differs in a draw whose winners were changed', async () => {
  const file = path.join(dir, 'tampered.json');
  const outsider = draw.waitlist[4]!;
  fs.writeFileSync(file, canonicalJson({ ...draw, winners: [draw.winners[0]!, outsider, draw.winners[2]!] }));
  const result = await verify(file);
  expect(result.status).toBe(1);
  expect(result.stdout).toContain(`NOT verified: 1 problem in ${file}`);
  expect(result.stdout).toContain(`winners[1] is ${outsider} in the file, ${draw.winners[1]} by the draw`);
});

it('says a file is missing or not JSON, and how to call it without one', async () => {
  const missing = path.join(dir, 'nowhere.json');
  expect(await verify(missing)).toEqual({ status: 2, stdout: '', stderr: `cannot read ${missing}: there is no such file\n` });

  const notJson = path.join(dir, 'page.html');
  fs.writeFileSync(notJson, '<!doctype html><title>verify this draw</title>');
  const result = await verify(notJson);
  expect(result.status).toBe(2);
  expect(result.stderr).toMatch(new RegExp(`^${notJson.replaceAll('.', '\\.')} is not a JSON file: `));

  expect((await verify('')).stderr).toMatch(/^usage: npm run draw:verify -- <file>/);
});
