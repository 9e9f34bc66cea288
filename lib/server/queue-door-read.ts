import 'server-only';
import { dispatch } from './dispatcher';
import { clientIp } from './client-ip';
import type { DoorAnswer, DoorCall } from './queue-door';

/**
 * A waiting room's position read answered at the entry server's door (lib/server/queue-door.ts; issue 35): the API's
 * dispatcher runs it as the API's route handler would (lib/server/http.ts `handleApiRequest`), with the same headers,
 * so the buyer gets the same answer, without the framework's routing in front of it.
 */
export async function readQueueAtTheDoor(call: DoorCall): Promise<DoorAnswer> {
  const headers = new Headers();
  for (const [name, value] of Object.entries(call.headers)) {
    if (value === undefined) continue;
    headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  const result = await dispatch({
    method: 'POST',
    path: call.path,
    host: headers.get('host') ?? '',
    body: call.body,
    headers,
    ip: clientIp(headers),
  });
  return { status: result.status, body: JSON.stringify(result.body), headers: result.headers };
}
