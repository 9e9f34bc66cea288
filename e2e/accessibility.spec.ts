import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { ROUTES } from '../lib/channel/routes';
import { SEED_CHANNELS } from '../lib/demo/seed-data';
import { logInThroughApi } from './api-login';
import { channelUrl } from './support';

// Accessibility (issue 17, item 6): axe-core on every route of spec §2 on every demo channel, for a visitor and for a
// logged-in buyer: no critical and no serious violation (WCAG 2 A and AA rules), colour contrast included. A route is
// opened with id 1 where it takes one; the pages it ends on (itself, /login, /404, a guard's redirect) are each checked
// once per channel.

type Found = { page: string; rule: string; impact: string; nodes: string[] };

async function sweep(page: Page, channelKey: string): Promise<Found[]> {
  const host = channelKey.toLowerCase();
  const seen = new Set<string>();
  const found: Found[] = [];
  for (const route of ROUTES) {
    // A download (the buyer's data file, issue 36) is not a page: nothing for axe to read.
    if (route.name === 'setKey' || route.download) continue;
    await page.goto(channelUrl(host, route.pattern.replace(/:[a-zA-Z_]+/g, '1')));
    const landed = new URL(page.url()).pathname;
    if (seen.has(landed)) continue;
    seen.add(landed);
    await page.waitForLoadState('load');
    const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
    for (const v of result.violations) {
      if (v.impact !== 'critical' && v.impact !== 'serious') continue;
      found.push({ page: `${host}${landed}`, rule: v.id, impact: v.impact, nodes: v.nodes.slice(0, 3).map((n) => n.target.join(' ')) });
    }
  }
  return found;
}

test.describe('no critical or serious accessibility violation', () => {
  test('for a visitor, on every route of every demo channel', async ({ page }) => {
    test.setTimeout(300_000);
    for (const channel of SEED_CHANNELS.filter((c) => c.status === 1)) {
      expect(await sweep(page, channel.key)).toEqual([]);
    }
  });

  // Logged in, each channel shows its buyer's pages (Mine, records, empty lists with their way on, the pay page).
  for (const channel of SEED_CHANNELS.filter((c) => c.status === 1).map((c) => c.key)) {
    test(`for a logged-in buyer on ${channel}, on every route`, async ({ page }) => {
      test.setTimeout(180_000);
      await logInThroughApi(page, channel.toLowerCase());
      expect(await sweep(page, channel)).toEqual([]);
    });
  }
});
