import 'server-only';
import { redirect } from 'next/navigation';
import { AppError } from '../procedure/errors';
import { pageViewerScope } from './session';
import { routeId } from './route-id';
import type { ViewerScope } from '../procedure/scope';
import type { PageChannel, PageParams } from './channel';

/** The params of a page of one campaign offer: `/…/:id/:exchange_id` (the campaign, its offer). */
export type OfferPageParams = PageParams & { id: string; exchange_id: string };

/**
 * What a service answers, or /404 where it answers 404 (an id of another channel or another buyer, or none): every
 * unknown thing of the store goes to /404 (spec §2), never to the framework's bare 404 (vercel/next.js#59180 in
 * docs/decisions.md).
 */
export async function foundOr404<T>(read: Promise<T>): Promise<T> {
  try {
    return await read;
  } catch (error) {
    if (error instanceof AppError && error.code === 404) redirect('/404');
    throw error;
  }
}

/**
 * One offer of one of the channel's campaigns, as the routes `/…/:id/:exchange_id` name them (a gift, an exchange),
 * read by `read` for the page's viewer (the logged-in buyer, or a visitor). Ids that are not ids go to /404 too.
 */
export async function pageOffer<T>(
  channel: PageChannel,
  route: { id: string; offerId: string },
  read: (scope: ViewerScope, campaignId: number, offerId: number) => Promise<T>,
): Promise<T> {
  const campaignId = routeId(route.id);
  const offerId = routeId(route.offerId);
  if (campaignId === null || offerId === null) redirect('/404');
  return foundOr404(read(await pageViewerScope(channel), campaignId, offerId));
}
