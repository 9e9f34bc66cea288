import type { IncomingMessage, ServerResponse } from 'node:http';
/**
 * The market API's calls at the door (issue 35, "First come, through a waiting room"; issue 34, the drop journey;
 * docs/drops.md, "Waiting room"): in a busy sale every waiting buyer's page asks for its place every second, the crowd
 * joins in the seconds before the opening, and then the few hundred who still see copies read their pay state, buy,
 * pay and read the result within the same seconds. So the entry server (server.ts) answers the market API's POST calls
 * before the framework's pipeline, buys after the buy lane (lib/server/buy-lane.ts). The call still goes through the
 * API's dispatcher (lib/server/queue-door-read.ts, installed by the app at start), as the API's route handler
 * (app/api/[...path]/route.ts, lib/server/http.ts `handleApiRequest`) runs it: the same channel, session, language,
 * body limit and envelope; only the framework's routing and request objects are skipped. Until the app has installed
 * it (the first moments of a start), and for every other call (another method, the avatar upload's own route, the
 * console's and payment providers' routes), the call goes to Next as before.
 *
 * Plain Node: server.ts loads it outside the app's bundle; the app installs its reader on globalThis.
 */

/** The waiting room's calls: the position read, the join (a sale's whole crowd joins before its opening), the watch. */
export const QUEUE_DOOR_PATHS: readonly string[] = [
  '/api/market/api/queue/position',
  '/api/market/api/queue/join',
  '/api/market/api/queue/watch',
];

/** Every market API call is a POST under this path (DESIGN §3), answered by the one API route handler... */
const MARKET_API = '/api/market/api/';
/** ...but these, which have routes of their own (the avatar upload reads a picture, not JSON). */
const OWN_ROUTES: readonly string[] = ['/api/market/api/profile/avatar'];

/** An open watch's empty line, so that no proxy or client takes a quiet stream for a dead one. */
export const WATCH_HEARTBEAT_MS = 15_000;

/** A position read's body is `{"saleId":"…"}`; the door reads no further (413 beyond, connection closed). */
export const MAX_QUEUE_READ_BODY_BYTES = 8 * 1024;
/** Any other market call's body: the dispatcher's limit for it (lib/server/dispatcher.ts `MAX_BODY_BYTES`; a test keeps them equal). */
export const MAX_MARKET_BODY_BYTES = 64 * 1024;

/** How long a position read's body may take to arrive once its headers have. */
const BODY_TIMEOUT_MS = 5_000;

/** A call at the door: its API path (without /api), its headers (the client's address as the entry server resolved it) and body. */
export type DoorCall = { path: string; headers: IncomingMessage['headers']; body: string };
/** Where an open watch writes: one line per push; `end` closes the stream. */
export type DoorSink = { write: (line: string) => void; end: () => void };
/**
 * The dispatcher's answer, sent as it is; a watch call's (`queue/watch`) also offers a stream: the answer is then its
 * first line, and the watch writes the next ones until the client leaves (null from `stream`: no watch opened, the
 * answer is sent as a plain one).
 */
export type DoorAnswer = {
  status: number;
  body: string;
  headers?: Record<string, string>;
  stream?: (sink: DoorSink) => (() => void) | null;
};
export type QueueDoorReader = (call: DoorCall) => Promise<DoorAnswer>;

const installed = globalThis as unknown as { storefrontQueueDoor?: QueueDoorReader };

/** Installs the app's reader (lib/server/queue-door-read.ts, from instrumentation.ts). Null removes it. */
export function installQueueDoor(reader: QueueDoorReader | null): void {
  if (reader) installed.storefrontQueueDoor = reader;
  else delete installed.storefrontQueueDoor;
}

/**
 * The API path a request is for when it is answered at the door (read as the app reads it, as the buy lane does), or
 * null: a POST of a waiting room's call or of any market call but those with routes of their own.
 */
export function queueDoorPath(req: Pick<IncomingMessage, 'method' | 'url'>): string | null {
  if (req.method !== 'POST' || !req.url || !installed.storefrontQueueDoor) return null;
  let path: string;
  try {
    path = decodeURIComponent(new URL(req.url, 'http://door.invalid').pathname);
  } catch {
    return null;
  }
  if (QUEUE_DOOR_PATHS.includes(path)) return path.slice('/api'.length);
  return path.startsWith(MARKET_API) && !OWN_ROUTES.includes(path) ? path.slice('/api'.length) : null;
}

/** The largest body the door reads for the call at `path` (an API path, as queueDoorPath returns it). */
export function doorBodyLimit(path: string): number {
  return QUEUE_DOOR_PATHS.includes(`/api${path}`) ? MAX_QUEUE_READ_BODY_BYTES : MAX_MARKET_BODY_BYTES;
}

function send(res: ServerResponse, status: number, body: string, headers: Record<string, string> = {}): void {
  if (res.headersSent || res.destroyed) return;
  res.writeHead(status, { ...headers, 'content-type': 'application/json', 'cache-control': 'no-store' });
  res.end(body);
}

/**
 * A watch: the answer as the stream's first line, then the watch's lines (`application/x-ndjson`), an empty line every
 * WATCH_HEARTBEAT_MS, until either side ends it. A watch that cannot open sends the answer as a plain one.
 */
function stream(res: ServerResponse, answer: DoorAnswer): void {
  if (res.headersSent || res.destroyed) return;
  let ended = false;
  const sink: DoorSink = {
    write: (line) => {
      if (!ended && !res.destroyed) res.write(`${line}\n`);
    },
    end: () => {
      if (ended) return;
      ended = true;
      res.end();
    },
  };
  const close = answer.stream!(sink);
  if (!close) return send(res, answer.status, answer.body, answer.headers);
  res.writeHead(answer.status, {
    ...answer.headers,
    'content-type': 'application/x-ndjson; charset=utf-8',
    'cache-control': 'no-store',
    // A buffering proxy in front would hold the lines back (nginx reads this).
    'x-accel-buffering': 'no',
  });
  res.socket?.setNoDelay(true);
  sink.write(answer.body);
  const heartbeat = setInterval(() => sink.write(''), WATCH_HEARTBEAT_MS);
  heartbeat.unref?.();
  res.once('close', () => {
    ended = true;
    clearInterval(heartbeat);
    close();
  });
}

/**
 * Reads the call's body (within doorBodyLimit and 5 s) and answers it through the installed reader. The security
 * headers are already on `res` (server.ts `guardEntry`).
 */
export function answerAtTheDoor(req: IncomingMessage, res: ServerResponse, path: string): void {
  const reader = installed.storefrontQueueDoor!;
  const limit = doorBodyLimit(path);
  const tooLarge = () => {
    send(res, 413, JSON.stringify({ code: 400, message: `body: must be ${limit} bytes or less`, data: null }), {
      connection: 'close',
    });
    req.socket.destroySoon?.();
  };
  const declared = req.headers['content-length'];
  if (declared !== undefined && /^\d+$/.test(declared) && Number(declared) > limit) return tooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  let done = false;
  const timer = setTimeout(() => {
    if (done) return;
    done = true;
    send(res, 408, JSON.stringify({ code: 400, message: `body: did not arrive within ${BODY_TIMEOUT_MS} ms`, data: null }), {
      connection: 'close',
    });
    req.socket.destroySoon?.();
  }, BODY_TIMEOUT_MS);
  timer.unref?.();
  req.on('data', (chunk: Buffer) => {
    if (done) return;
    size += chunk.length;
    if (size > limit) {
      done = true;
      clearTimeout(timer);
      return tooLarge();
    }
    chunks.push(chunk);
  });
  req.once('end', () => {
    if (done) return;
    done = true;
    clearTimeout(timer);
    reader({ path, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') }).then(
      (answer) => (answer.stream ? stream(res, answer) : send(res, answer.status, answer.body, answer.headers)),
      (error: unknown) => {
        console.error('[api door] the call failed', error);
        send(res, 500, JSON.stringify({ code: 500, message: 'internal error', data: null }));
      },
    );
  });
  req.once('error', () => {
    done = true;
    clearTimeout(timer);
  });
}
