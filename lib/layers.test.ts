import fs from 'node:fs';
import path from 'node:path';

/**
 * Folders whose arrows run one way (docs/architecture.md): each lib folder imports only folders below it in this list,
 * with no exception (issue 30). The primitives at the bottom; the procedure kit under every domain; the page loaders
 * and the server shell (dispatcher, registry, http, openapi) above the domains; the browser's client of the API above
 * the server shell, whose registry gives it the calls' types (as types only: what a browser module imports at run time
 * is checked by test/client-imports.test.ts, and the server's code would bring zod with it).
 */
const LAYERS = [
  'security',
  'env',
  'format',
  'i18n',
  'user-agent',
  'db',
  // Above db: the caches publish their invalidations to the other processes through the database (issue 31).
  'cache',
  'rate-limit',
  'procedure',
  // Alerts and the live drop counters: raised from the domains below them (sold out, domains, SMS, payments), issue 32.
  'monitor',
  'media',
  'channel',
  'brand-icon',
  // Real-name identities (issue 33): read by auth (identity blocks at login) and by every domain that asks for one.
  'identity',
  'auth',
  'sale',
  'collection',
  'campaign',
  'redeem-code',
  'order',
  'payment',
  'gift',
  'exchange',
  'chain',
  // Gifts between buyers (issue 36): read holdings, chain-up locks, refunds and identities of the folders below.
  'transfer',
  // Share codes, attribution and the share poster (issue 36): read sales, channels and orders; tracking records visits.
  'share',
  'tracking',
  // The WeChat share card (issue 36): official accounts' tickets and wx.config, for the channel's pages.
  'wechat',
  // Buyers and orders as the console finds and shows them (issue 32): above the domains they read.
  'buyer',
  // The daily figures, counted from orders, refunds and tracking (issue 32, "Reports").
  'report',
  // Notices and the drop calendar (issue 32): read the sales' table, written by the console's procedures above.
  'notice',
  'operator',
  'jobs',
  'page',
  'server',
  'client',
  'demo',
];

const root = path.resolve(__dirname, '..');

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

function folderOf(file: string): string | null {
  const rel = path.relative(path.join(root, 'lib'), file);
  if (rel.startsWith('..')) return null;
  const [first] = rel.split(path.sep);
  return first!.replace(/\.tsx?$/, '');
}

type Arrow = { from: string; to: string; file: string };

function arrows(): Arrow[] {
  const found: Arrow[] = [];
  for (const file of sourceFiles(path.join(root, 'lib'))) {
    const from = folderOf(file)!;
    const text = fs.readFileSync(file, 'utf8');
    for (const match of text.matchAll(/^(import|export)\s+(type\s+)?[^;]*?from\s+'([^']+)'/gm)) {
      const spec = match[3]!;
      const target = spec.startsWith('@/')
        ? path.join(root, spec.slice(2))
        : spec.startsWith('.')
          ? path.resolve(path.dirname(file), spec)
          : null;
      if (!target) continue;
      const to = folderOf(target);
      if (to === null) {
        found.push({ from, to: path.relative(root, target).split(path.sep)[0]!, file });
      } else if (to !== from) {
        found.push({ from, to, file });
      }
    }
  }
  return found;
}

describe('lib folders', () => {
  const all = arrows();

  it('are all placed in a layer', () => {
    const folders = new Set(all.flatMap((a) => [a.from, a.to]).filter((f) => !['components', 'app', 'test'].includes(f)));
    expect([...folders].filter((f) => !LAYERS.includes(f))).toEqual([]);
  });

  it('import only folders below them', () => {
    const up = all
      .filter((a) => LAYERS.includes(a.to) && LAYERS.indexOf(a.to) > LAYERS.indexOf(a.from))
      .map((a) => `${path.relative(root, a.file)}: ${a.from} -> ${a.to}`);
    expect(up).toEqual([]);
  });

  it("are listed in docs/architecture.md's layer table, in the same order (the table is what a new engineer reads)", () => {
    const doc = fs.readFileSync(path.join(root, 'docs', 'architecture.md'), 'utf8');
    const table = doc.slice(doc.indexOf('| layer (bottom first) |'));
    const rows = table.slice(0, table.indexOf('\n\n')).split('\n').slice(2);
    const listed = rows.flatMap((row) => [...(row.split('|')[2] ?? '').matchAll(/`([a-z0-9-]+)`/g)].map((m) => m[1]!));
    expect(listed).toEqual(LAYERS);
  });

  it('never import the UI or the routes', () => {
    const ui = all.filter((a) => ['components', 'app'].includes(a.to)).map((a) => path.relative(root, a.file));
    expect(ui).toEqual([]);
  });

  it("take a domain's view types from its schema, the one place they are defined: no module passes them on", () => {
    const passedOn = sourceFiles(path.join(root, 'lib'))
      .filter((file) => /^export\s+(type\s+)?\{[^}]*\}\s+from\s+'\.\/schema'/m.test(fs.readFileSync(file, 'utf8')))
      .map((file) => path.relative(root, file));
    expect(passedOn).toEqual([]);
  });
});
