import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildServer, SERVER_OUT, serverNeedsBuild } from './build-server';

// Issue 34: `npm start` runs the entry server compiled at build time, with no TypeScript compiler in the production
// process, and the build is done again when server.ts or a file it imports changes. The project here is a stand-in:
// a server.ts importing one of our files (with TypeScript-only syntax) and one package from node_modules.

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'storefront-server-build-'));
  fs.mkdirSync(path.join(dir, 'lib'));
  fs.writeFileSync(
    path.join(dir, 'lib', 'greeting.ts'),
    'export type Greeting = { to: string };\nexport const greet = ({ to }: Greeting): string => `ready for ${to}`;\n',
  );
  fs.writeFileSync(
    path.join(dir, 'server.ts'),
    "import { format } from 'node:util';\nimport { greet } from './lib/greeting';\nconsole.log(format('%s', greet({ to: 'buyers' as string })));\n",
  );
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

/** Sets a file's modification time `seconds` ahead of now (a later edit). */
function touchLater(file: string, seconds: number): void {
  const later = new Date(Date.now() + seconds * 1000);
  fs.utimesSync(file, later, later);
}

describe('the compiled entry server', () => {
  it('runs under plain node, with no TypeScript loader', () => {
    const inputs = buildServer(dir);
    expect(inputs).toEqual(['lib/greeting.ts', 'server.ts']);
    const run = spawnSync(process.execPath, [path.join(dir, SERVER_OUT)], { cwd: dir, encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(run.stdout).toBe('ready for buyers\n');
  });

  it('is built when missing, and again when server.ts or a file it imports changes', () => {
    expect(serverNeedsBuild(dir)).toBe(true);
    buildServer(dir);
    expect(serverNeedsBuild(dir)).toBe(false);

    touchLater(path.join(dir, 'lib', 'greeting.ts'), 60);
    expect(serverNeedsBuild(dir)).toBe(true);
    buildServer(dir);
    touchLater(path.join(dir, SERVER_OUT), 120);
    expect(serverNeedsBuild(dir)).toBe(false);

    touchLater(path.join(dir, 'server.ts'), 180);
    expect(serverNeedsBuild(dir)).toBe(true);
  });

  it('is built again when a file it was made from is gone (its imports moved)', () => {
    buildServer(dir);
    fs.rmSync(path.join(dir, 'lib', 'greeting.ts'));
    expect(serverNeedsBuild(dir)).toBe(true);
  });

  it('is what `npm start` runs and what `npm run build` makes', () => {
    const scripts = (JSON.parse(fs.readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> }).scripts;
    expect(scripts.start).toBe(`node ${SERVER_OUT}`);
    expect(scripts.build).toMatch(/^next build && tsx scripts\/build-server\.ts && tsx scripts\/compress-static\.ts$/);
    expect(scripts.start).not.toMatch(/tsx/);
  });
});
