import { sql } from 'drizzle-orm';
import { getDb } from '@/lib/db/client';

/** Liveness and database reachability, for load balancers and the test rig. */
export async function GET(): Promise<Response> {
  try {
    await getDb().execute(sql`select 1`);
    return Response.json({ status: 'ok', database: 'ok' }, { headers: { 'cache-control': 'no-store' } });
  } catch (error) {
    console.error('[health] database check failed', error);
    return Response.json({ status: 'error', database: 'unreachable' }, { status: 503, headers: { 'cache-control': 'no-store' } });
  }
}
