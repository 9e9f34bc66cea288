import 'server-only';
import { dispatch } from './dispatcher';
import { clientIp } from './client-ip';
import { wirePosition } from '../sale/queue-procedures';
import { withWatchOffer } from '../sale/queue-watch';
import type { QueuePosition } from '../sale/queue';
import type { DoorAnswer, DoorCall } from './queue-door';

/** The watch call's API path, as the door hands it (without /api). */
const WATCH_PATH = '/market/api/queue/watch';

/**
 * A market API call answered at the entry server's door (lib/server/queue-door.ts; issues 34, 35): a waiting room's
 * position read, a drop's pay state, buy or payment. The API's dispatcher runs it as the API's route handler would
 * (lib/server/http.ts `handleApiRequest`), with the same headers, so the buyer gets the same answer, without the
 * framework's routing in front of it. A watch call's answer stays open as a stream of the buyer's place
 * (lib/sale/queue-watch.ts).
 */
export async function readQueueAtTheDoor(call: DoorCall): Promise<DoorAnswer> {
  const headers = new Headers();
  for (const [name, value] of Object.entries(call.headers)) {
    if (value === undefined) continue;
    headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  const run = () =>
    dispatch({
      method: 'POST',
      path: call.path,
      host: headers.get('host') ?? '',
      body: call.body,
      headers,
      ip: clientIp(headers),
    });
  // Only the watch call may offer a stream: the position reads and joins run without the offer's async context.
  const { result, offer } = call.path === WATCH_PATH ? await withWatchOffer(run) : { result: await run(), offer: null };
  const answer: DoorAnswer = { status: result.status, body: JSON.stringify(result.body), headers: result.headers };
  // A watch call answered with the buyer's place (lib/sale/queue-watch.ts): the door keeps the answer open as a stream.
  if (offer && result.status === 200 && result.body.code === 200) {
    answer.stream = (sink) =>
      offer({
        send: (position) => sink.write(lineOf(position)),
        end: sink.end,
      });
  }
  return answer;
}

/** The last position worded for a watch, and its line: one answer pushed to many watchers is worded once. */
let last: { position: QueuePosition; line: string } | null = null;

function lineOf(position: QueuePosition): string {
  if (last?.position !== position) last = { position, line: JSON.stringify({ code: 200, message: 'ok', data: wirePosition(position) }) };
  return last.line;
}
