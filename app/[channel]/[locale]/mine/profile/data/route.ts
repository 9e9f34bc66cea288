import { loadPageChannel, type PageParams } from '@/lib/page/channel';
import { getPageUser, userScopeOf } from '@/lib/page/session';
import { buyerData, buyerDataFileName } from '@/lib/buyer/data-export';
import { pageSessionTokenHash } from '../session-hash';

/**
 * GET /mine/profile/data (issue 36; docs/profile.md, "Your data"): the buyer's data on this store as a JSON file,
 * downloaded (Content-Disposition: attachment). Only with a live session of this store, and only the session's buyer's
 * data; never cached anywhere.
 */
export async function GET(_request: Request, { params }: { params: Promise<PageParams> }): Promise<Response> {
  const channel = await loadPageChannel(params);
  const user = await getPageUser(channel);
  const headers = { 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' };
  if (!user) {
    return Response.json({ code: 401, message: channel.t('api.notLoggedIn'), data: null }, { status: 401, headers });
  }
  const scope = userScopeOf(channel, user);
  const file = await buyerData(scope, await pageSessionTokenHash(channel.key));
  return new Response(`${JSON.stringify(file, null, 2)}\n`, {
    headers: {
      ...headers,
      'content-type': 'application/json; charset=utf-8',
      'content-disposition': `attachment; filename="${buyerDataFileName(channel.key, scope.now)}"`,
    },
  });
}
