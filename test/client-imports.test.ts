import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

// The lean first load (DESIGN §10, issue 15) without building: what every client module imports statically, and so
// ships with the page that renders it. Type-only imports and dynamic import() (code loaded on first use) are left out.
// `npx tsx scripts/bench-first-load.ts <url>` measures the bytes themselves on a built server.

const ROOT = path.resolve(__dirname, '..');
const SOURCE_DIRS = ['app', 'components', 'lib'];
const EXTENSIONS = ['.ts', '.tsx'];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return EXTENSIONS.includes(path.extname(entry.name)) && !/\.test\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

function resolveLocal(from: string, specifier: string): string | null {
  const base = specifier.startsWith('@/') ? path.join(ROOT, specifier.slice(2)) : path.resolve(path.dirname(from), specifier);
  for (const candidate of [base, ...EXTENSIONS.map((e) => base + e), ...EXTENSIONS.map((e) => path.join(base, `index${e}`))]) {
    if (EXTENSIONS.includes(path.extname(candidate)) && existsSync(candidate)) return candidate;
  }
  return null; // CSS, JSON: not modules that pull packages in
}

type Edge = { local: string } | { pkg: string };

/** The modules a file imports or re-exports at run time (not `import type`, not `import()`). */
function runtimeImports(file: string): Edge[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, false);
  const edges: Edge[] = [];
  for (const statement of source.statements) {
    let specifier: ts.Expression | undefined;
    if (ts.isImportDeclaration(statement)) {
      const clause = statement.importClause;
      if (clause?.isTypeOnly) continue;
      const named = clause?.namedBindings;
      const onlyTypes =
        clause !== undefined &&
        !clause.name &&
        named !== undefined &&
        ts.isNamedImports(named) &&
        named.elements.every((e) => e.isTypeOnly);
      if (onlyTypes && named.elements.length > 0) continue;
      specifier = statement.moduleSpecifier;
    } else if (ts.isExportDeclaration(statement) && statement.moduleSpecifier) {
      const clause = statement.exportClause;
      if (statement.isTypeOnly || (clause && ts.isNamedExports(clause) && clause.elements.every((e) => e.isTypeOnly))) continue;
      specifier = statement.moduleSpecifier;
    }
    if (!specifier || !ts.isStringLiteral(specifier)) continue;
    const name = specifier.text;
    if (name.startsWith('.') || name.startsWith('@/')) {
      const local = resolveLocal(file, name);
      if (local) edges.push({ local });
    } else edges.push({ pkg: name });
  }
  return edges;
}

/** Every local module and package a file pulls in statically, itself included. */
function closure(entry: string): { files: Set<string>; packages: Set<string> } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const stack = [entry];
  while (stack.length > 0) {
    const file = stack.pop()!;
    if (files.has(file)) continue;
    files.add(file);
    for (const edge of runtimeImports(file)) {
      if ('pkg' in edge) packages.add(edge.pkg);
      else stack.push(edge.local);
    }
  }
  return { files, packages };
}

const rel = (file: string) => path.relative(ROOT, file);
const clientModules = SOURCE_DIRS.flatMap((d) => sourceFiles(path.join(ROOT, d))).filter((file) =>
  /^\s*['"]use client['"]/.test(readFileSync(file, 'utf8')),
);
const closures = new Map(clientModules.map((file) => [rel(file), closure(file)]));

/** Client modules whose static imports reach `target` (a package name, or a module path from the root). */
function reaching(target: string): string[] {
  return [...closures]
    .filter(([, c]) => c.packages.has(target) || [...c.files].some((f) => rel(f) === target))
    .map(([file]) => file)
    .sort();
}

describe('client bundles carry only what a page uses on its first paint', () => {
  it('finds the client modules', () => {
    expect(closures.size).toBeGreaterThan(20);
    expect(closures.has('components/shell/api-provider.tsx')).toBe(true);
  });

  it('no client module pulls in zod: validation is the server’s', () => {
    expect(reaching('zod')).toEqual([]);
    expect(reaching('zod/mini')).toEqual([]);
  });

  it('sonner comes only with the first toast', () => {
    expect(reaching('sonner')).toEqual(['components/ui/toaster.tsx']);
    expect(reaching('components/ui/toaster.tsx')).toEqual(['components/ui/toaster.tsx']);
  });

  it('the image viewer and its gesture library come only when a photo is opened', () => {
    expect(reaching('@use-gesture/react')).toEqual(['components/ui/image-viewer.tsx']);
    expect(reaching('components/ui/image-viewer.tsx')).toEqual(['components/ui/image-viewer.tsx']);
  });

  it('the confirm sheet comes only when asked for', () => {
    expect(reaching('components/ui/confirm-sheet.tsx')).toEqual(['components/ui/confirm-sheet.tsx']);
  });

  it("next-auth's client only on the login page (logging out loads it on first use)", () => {
    expect(reaching('next-auth/react')).toEqual(['components/auth/login-form.tsx']);
  });
});

// issue 34: the shared pages (goods detail, home) ship no client store and no API client; the pages that use them get
// them from their section's layout (components/shell/app-providers.tsx), never from the channel's root layout.
const CHANNEL_APP = path.join(ROOT, 'app', '[channel]', '[locale]');

function channelPages(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return channelPages(full);
    return entry.name === 'page.tsx' ? [full] : [];
  });
}

/** The layouts above a page, from the channel's root layout down to its own section's. */
function layoutsAbove(page: string): string[] {
  const layouts: string[] = [];
  for (let dir = path.dirname(page); dir.startsWith(CHANNEL_APP); dir = path.dirname(dir)) {
    const layout = path.join(dir, 'layout.tsx');
    if (existsSync(layout)) layouts.unshift(layout);
  }
  return layouts;
}

const PROVIDED = ['components/shell/storefront-provider.tsx', 'components/shell/api-provider.tsx'];
const uses = (file: string, module: string) => [...closure(file).files].some((f) => rel(f) === module);

describe('the client store and the API client come only with the pages that use them (issue 34)', () => {
  const pages = channelPages(CHANNEL_APP);

  it('finds the pages', () => {
    expect(pages.length).toBeGreaterThan(20);
  });

  it('the channel’s root layout carries neither, nor zustand or SWR', () => {
    const root = closure(path.join(CHANNEL_APP, 'layout.tsx'));
    expect([...root.files].map(rel).filter((f) => PROVIDED.includes(f) || f === 'components/shell/app-providers.tsx')).toEqual([]);
    expect([...root.packages].filter((p) => p.startsWith('zustand') || p.startsWith('swr'))).toEqual([]);
  });

  it('goods detail and home reach neither (the real-name notice brings the store with it, loaded when rendered)', () => {
    for (const page of [path.join(CHANNEL_APP, 'goods', 'detail', '[saleId]', 'page.tsx'), path.join(CHANNEL_APP, 'page.tsx')]) {
      for (const provider of PROVIDED) expect(uses(page, provider)).toBe(false);
      expect([...closure(page).packages].filter((p) => p.startsWith('zustand') || p.startsWith('swr'))).toEqual([]);
    }
  });

  it('every page that uses the store or the API client sits under a layout that provides them', () => {
    const unprovided = pages
      .filter((page) => PROVIDED.some((provider) => uses(page, provider)))
      .filter((page) => !layoutsAbove(page).some((layout) => uses(layout, 'components/shell/app-providers.tsx')))
      .map(rel);
    expect(unprovided).toEqual([]);
  });

  it('the pay pages have the API client (the pay page reads its buyer part through SWR)', () => {
    for (const page of pages.filter((p) => rel(p).includes('/pay/'))) {
      expect(layoutsAbove(page).some((layout) => uses(layout, 'components/shell/app-providers.tsx'))).toBe(true);
    }
  });
});

// issue 34: the goods page's first load, the last kilobytes. Its links are server HTML the shell hands to the router
// (components/shell/router-link.tsx), not next/link; the shell loads the tracker, the WeChat tip and the toasts' host when
// needed (components/shell/shell.tsx); the buy bar's and the badge's countdowns come only with a sale not yet open.
describe("the goods page's first load (issue 34)", () => {
  const goods = path.join(CHANNEL_APP, 'goods', 'detail', '[saleId]', 'page.tsx');
  const root = path.join(CHANNEL_APP, 'layout.tsx');

  it('carries no next/link', () => {
    expect([...closure(goods).packages].filter((p) => p === 'next/link')).toEqual([]);
    expect([...closure(root).packages].filter((p) => p === 'next/link')).toEqual([]);
  });

  it('loads the tracker, the WeChat tip and the toasts’ host on use, not with the layout', () => {
    const statics = [...closure(root).files].map(rel);
    for (const lazy of ['components/shell/page-tracker.tsx', 'components/shell/wx-tip.tsx', 'components/ui/toast.tsx']) {
      expect(statics).not.toContain(lazy);
    }
  });

  it('loads the countdowns only for a sale not yet open', () => {
    const statics = [...closure(goods).files].map(rel);
    for (const lazy of ['components/sale/buy-action.tsx', 'components/sale/live-sale-status.tsx', 'components/sale/use-sale-clock.ts']) {
      expect(statics).not.toContain(lazy);
    }
  });
});
