import 'server-only';
import { getDb } from '../db/client';
import { channelPayOptions } from '../payment/providers';
import type { PayOption } from '../payment/clients';
import { pageChannel, type PageChannel } from './channel';
import { pageLoader } from './loader';

const payOptions = pageLoader(async (channelKey: string, locale: string) =>
  channelPayOptions(getDb(), await pageChannel(channelKey, locale)),
);

/**
 * What the pay page offers: the channel's payment providers that the deployment runs, each with the browsers it takes
 * payments from (the form keeps those that fit the buyer's). The same for every buyer, so the page is served from the
 * rendered-page cache (issue 34); whether the buyer's WeChat openid is known comes with their own part
 * (`saleRecord/payState`, lib/order/pay-state.ts), never from this render's cookies.
 */
export function pagePayOptions(channel: PageChannel): Promise<PayOption[]> {
  return payOptions(channel.key, channel.locale);
}
