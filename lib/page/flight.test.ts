import { existsSync } from 'node:fs';
import path from 'node:path';
import { matchRoute, ROUTES } from '@/lib/channel/routes';
import { routeSegments, treeUpToTarget, withValue } from './flight';

// Issue 34: a router fetch's answer depends on the router's tree only as far as the tree and the page asked for agree;
// below that, Next renders the page anew. So buyers coming from pages of one shape share one cached answer.

/** The tree Next's router sends from the page at `segments` (as Chromium sent it, 2026-11-29). */
function treeFrom(...segments: (string | [string, string])[]): string {
  let node: unknown = ['__PAGE__', {}, null, null, 0];
  for (const segment of [...segments].reverse()) {
    node = [Array.isArray(segment) ? [...segment, 'd', null] : segment, { children: node }, null, null, 0];
  }
  return encodeURIComponent(
    JSON.stringify([
      '',
      {
        children: [
          ['channel', 'AURORA', 'd', null],
          { children: [['locale', 'en', 'd', null], { children: node }, null, null, 16] },
          null,
          null,
          16,
        ],
      },
      null,
      null,
      16,
    ]),
  );
}
const target = (pathname: string) => routeSegments(matchRoute(pathname)!, 'AURORA', 'en');

describe('treeUpToTarget', () => {
  it('cuts the cashier of each payment alike on the way to the result page', () => {
    const one = treeFrom('sandbox', 'cashier', ['paymentNo', 'P202611290800001111111']);
    const two = treeFrom('sandbox', 'cashier', ['paymentNo', 'P202611290800002222222']);
    const result = target('/pay/success');
    expect(treeUpToTarget(one, result)).toBe(treeUpToTarget(two, result));
    expect(treeUpToTarget(one, result)).not.toContain('P2026');
    // And the pay page of any sale, or a goods page, alike on the way to a cashier: all differ from it right below
    // the language, where Next starts to render.
    const cashier = target('/sandbox/cashier/P202611290800003333333');
    const fromPay = treeUpToTarget(treeFrom('pay', ['saleId', '1']), cashier);
    expect(treeUpToTarget(treeFrom('pay', ['saleId', '2']), cashier)).toBe(fromPay);
    expect(treeUpToTarget(treeFrom('goods', 'detail', ['saleId', '1']), cashier)).toBe(fromPay);
    expect(fromPay).not.toContain('saleId');
  });

  it('cuts against the page as rendered: for the cashier, its stand-in, so a tree naming the stand-in is a state of its own', () => {
    const rendered = target(`/sandbox/cashier/P${'0'.repeat(21)}`);
    const fromA = treeUpToTarget(treeFrom('sandbox', 'cashier', ['paymentNo', 'P202611290800001111111']), rendered);
    const fromB = treeUpToTarget(treeFrom('sandbox', 'cashier', ['paymentNo', 'P202611290800002222222']), rendered);
    const naming = treeUpToTarget(treeFrom('sandbox', 'cashier', ['paymentNo', `P${'0'.repeat(21)}`]), rendered);
    expect(fromA).toBe(fromB);
    expect(naming).not.toBe(fromA);
  });

  it('keeps what Next reads: the segments both share, down to the page itself', () => {
    const goods5 = target('/goods/detail/5');
    // From another goods page, the tree is kept down to the sale: Next renders from the sale's segment.
    const from7 = treeUpToTarget(treeFrom('goods', 'detail', ['saleId', '7']), goods5);
    const from8 = treeUpToTarget(treeFrom('goods', 'detail', ['saleId', '8']), goods5);
    expect(from7).toBe(from8);
    expect(from7).toContain('"detail"');
    // From the page itself (a refresh), the whole tree: another answer than from another sale's page.
    const self = treeFrom('goods', 'detail', ['saleId', '5']);
    expect(treeUpToTarget(self, goods5)).toBe(decodeURIComponent(self));
    expect(treeUpToTarget(self, goods5)).not.toBe(from7);
    // A tree that does not parse is kept as it came (plausibleTree refuses it before this).
    expect(treeUpToTarget('%E0%A4%A', goods5)).toBe('%E0%A4%A');
  });
});

it('names every shared route’s segments as the app’s folders, so the cut matches what Next compares', () => {
  for (const route of ROUTES.filter((r) => r.shared)) {
    const folder = route.pattern
      .split('/')
      .filter(Boolean)
      .map((part) => (part.startsWith(':') ? `[${part.slice(1)}]` : part));
    expect([route.name, existsSync(path.join('app', '[channel]', '[locale]', ...folder, 'page.tsx'))]).toEqual([route.name, true]);
  }
});

it('puts the number asked for in the stand-in’s place, and refuses one of another length', () => {
  const standIn = { standIn: '0000000000000000000000', value: '2026112908000012345678' };
  expect(withValue('0:{"q":"?orderNo=0000000000000000000000"}', standIn)).toBe('0:{"q":"?orderNo=2026112908000012345678"}');
  expect(() => withValue('x', { standIn: '000', value: '12' })).toThrow('another length');
});
