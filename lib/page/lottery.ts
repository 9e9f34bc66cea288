import 'server-only';
import { cachedRead, tags } from '../cache/store';
import type { ChannelScope } from '../procedure/scope';
import { AppError } from '../procedure/errors';
import { publishedLottery, type PublishedLottery } from '../sale/lottery';
import type { PublishedDraw } from '../sale/draw';
import { pageScope } from './channel';
import { pageLoader } from './loader';

/**
 * A sale's lottery as its pages show it (issue 35): the goods page's window, draw time and link to the verify page, and
 * the verify page itself. What every visitor sees alike: nothing of one buyer (their standing is `lottery/status`, asked
 * in the browser: components/sale/lottery-panel.tsx).
 */
export type PageLottery = {
  saleId: string;
  copies: number;
  registrationOpensAt: string;
  registrationClosesAt: string;
  drawAt: string;
  purchaseWindowMinutes: number;
  publicValueSource: string;
  commitment: string;
  drawnAt: string | null;
};

export type PagePublishedLottery = PageLottery & { registrants: number; draw: PublishedDraw | null };

function pageView(p: PublishedLottery): PageLottery {
  return {
    saleId: p.saleId,
    copies: p.copies,
    registrationOpensAt: p.registrationOpensAt.toISOString(),
    registrationClosesAt: p.registrationClosesAt.toISOString(),
    drawAt: p.drawAt.toISOString(),
    purchaseWindowMinutes: p.purchaseWindowMinutes,
    publicValueSource: p.publicValueSource,
    commitment: p.commitment,
    drawnAt: p.drawnAt ? p.drawnAt.toISOString() : null,
  };
}

/** The sale's lottery, or null when the sale goes first come (or is not this channel's): the read's 404 means that. */
async function readPublished(scope: ChannelScope, saleId: string): Promise<PublishedLottery | null> {
  const id = Number(saleId);
  if (!Number.isSafeInteger(id) || id <= 0) return null;
  try {
    return await publishedLottery(scope, id);
  } catch (error) {
    if (error instanceof AppError && error.code === 404) return null;
    throw error;
  }
}

/**
 * The goods page's lottery, cached across requests under the sale's tags and the tag its setup and draw drop
 * (`sale-terms:<id>`, lib/sale/lottery.ts), as the goods page's rendered HTML is (lib/page/rendered.ts `pageTags`).
 * Registrations change none of it.
 */
export function readPageLottery(scope: ChannelScope, saleId: string): Promise<PageLottery | null> {
  return cachedRead(scope.db, `lottery:${scope.channelId}:${saleId}`, [tags.sale(saleId), tags.saleTerms(saleId)], async () => {
    const published = await readPublished(scope, saleId);
    return published ? pageView(published) : null;
  });
}

export const pageLottery = pageLoader((channelId: number, saleId: string) => readPageLottery(pageScope({ id: channelId }), saleId));

/** The verify page's lottery, read at each visit (its count of registrants moves while registration is open). */
export const pagePublishedLottery = pageLoader(async (channelId: number, saleId: string): Promise<PagePublishedLottery | null> => {
  const published = await readPublished(pageScope({ id: channelId }), saleId);
  return published ? { ...pageView(published), registrants: published.registrants, draw: published.draw } : null;
});
