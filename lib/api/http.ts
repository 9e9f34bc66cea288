import 'server-only';
import { dispatch } from './dispatcher';
import { clientIp } from './client-ip';

/** Runs one API call from a route handler: request → dispatcher → JSON envelope (DESIGN §3). */
export async function handleApiRequest(request: Request, path: string): Promise<Response> {
  const result = await dispatch({
    method: request.method,
    path,
    host: request.headers.get('host') ?? '',
    body: request.method === 'POST' ? await request.text() : '',
    headers: request.headers,
    ip: clientIp(request.headers),
  });
  return Response.json(result.body, { status: result.status, headers: { ...result.headers, 'cache-control': 'no-store' } });
}
