/**
 * The server's clock, for countdowns in the browser (lib/client/server-clock.ts): a phone's clock can be minutes off,
 * and a drop opens by the server's. No database, never cached.
 */
export function GET(): Response {
  return Response.json({ now: Date.now() }, { headers: { 'cache-control': 'no-store' } });
}
