/**
 * The no-op call: answers at once without touching the database. `npm run bench:drop` measures it next to the buy
 * call in the same run, so the buy's figures can be read against what the server costs by itself.
 */
export function GET(): Response {
  return Response.json({ status: 'ok' }, { headers: { 'cache-control': 'no-store' } });
}
