/**
 * The embedded database's own thread (lib/db/embedded.ts starts it; docs/benchmarks.md says why).
 *
 * PGlite runs PostgreSQL as WebAssembly on the thread that calls it, so on the request thread every statement stalls
 * every open connection. Here it runs in a worker thread and speaks the PostgreSQL wire protocol to the server's one
 * postgres.js connection, over the worker's message port instead of a socket. The request thread then sends bytes and
 * gets bytes back, as it does with a PostgreSQL server.
 *
 * Messages from the request thread:
 * - `{ type: 'open', conn }`: a new connection; one is live at a time (an older one is closed, its transaction rolled back);
 * - `{ type: 'data', conn, bytes }`: bytes the client wrote;
 * - `{ type: 'end', conn }`: the client closed the connection;
 * - `{ type: 'listen', id, channel }`: LISTEN on the database's one session; answered `{ type: 'listening', id }`
 *   (or `{ type: 'failed', id, message }`);
 * - `{ type: 'close' }`: close the database; answered `{ type: 'closed' }`.
 * Messages to it: `{ type: 'ready' }`, `{ type: 'data', conn, bytes }`, `{ type: 'notify', channel, payload }`,
 * `{ type: 'fatal', message }` (the database cannot open), and the answers above.
 *
 * Plain JavaScript: it runs as it is, in Node, under the server, the scripts and the tests alike.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';

const SSL_REQUEST = 80877103;
const CANCEL_REQUEST = 80877102;

if (!parentPort) throw new Error('lib/db/embedded-worker.mjs runs as a worker thread (lib/db/embedded.ts starts it)');
const port = parentPort;

/** @type {PGlite} */
let pg;
try {
  pg = workerData.dir ? new PGlite(workerData.dir) : new PGlite();
} catch (error) {
  port.postMessage({ type: 'fatal', message: error instanceof Error ? error.message : String(error) });
  process.exit(1);
}

/**
 * The live connection: its id, the bytes received and not yet a whole message, whether its startup message was seen.
 * @type {{ id: number, pending: Buffer, started: boolean, closed: boolean } | null}
 */
let conn = null;
/** Work on the database, one piece at a time, in the order it arrived. */
let queue = pg.waitReady.then(
  () => port.postMessage({ type: 'ready' }),
  (error) => {
    port.postMessage({ type: 'fatal', message: error instanceof Error ? error.message : String(error) });
    process.exit(1);
  },
);

function enqueue(work) {
  queue = queue.then(work).catch((error) => console.error('[embedded database]', error));
  return queue;
}

/**
 * Splits off the whole messages received so far: the connection's startup message (it has no type byte; null once
 * taken) and the typed messages after it.
 */
function takeMessages(c) {
  let startup = null;
  const messages = [];
  let at = 0;
  const buffer = c.pending;
  for (;;) {
    if (!c.started) {
      if (buffer.length - at < 8) break;
      const length = buffer.readInt32BE(at);
      if (buffer.length - at < length) break;
      const code = buffer.readInt32BE(at + 4);
      const message = buffer.subarray(at, at + length);
      at += length;
      if (length === 8 && code === SSL_REQUEST) {
        send(c.id, Uint8Array.of(0x4e)); // 'N': no TLS inside the process
        continue;
      }
      if (length === 16 && code === CANCEL_REQUEST) continue; // nothing runs long enough to cancel
      c.started = true;
      startup = message;
      continue;
    }
    if (buffer.length - at < 5) break;
    const length = 1 + buffer.readInt32BE(at + 1);
    if (buffer.length - at < length) break;
    messages.push(buffer.subarray(at, at + length));
    at += length;
  }
  c.pending = buffer.subarray(at);
  return { startup, messages };
}

function send(connId, bytes) {
  port.postMessage({ type: 'data', conn: connId, bytes }, [bytes.buffer]);
}

/** Forwards the notifications among whole server messages (type 'A': pid, channel, payload). */
function forwardNotifications(bytes) {
  const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
  let at = 0;
  while (view.length - at >= 5) {
    const length = 1 + view.readInt32BE(at + 1);
    if (view.length - at < length) break;
    if (view[at] === 0x41) {
      const channelEnd = view.indexOf(0, at + 9);
      const payloadEnd = view.indexOf(0, channelEnd + 1);
      if (channelEnd > 0 && payloadEnd > 0 && payloadEnd < at + length) {
        port.postMessage({
          type: 'notify',
          channel: view.toString('utf8', at + 9, channelEnd),
          payload: view.toString('utf8', channelEnd + 1, payloadEnd),
        });
      }
    }
    at += length;
  }
}

/** Runs the whole messages of `c` received so far and sends back what the database answered, in one message. */
async function pump(c) {
  if (c.closed) return;
  const { startup, messages } = takeMessages(c);
  if (!startup && messages.length === 0) return;
  const out = [];
  let size = 0;
  // The connection's startup message runs alone; the messages after it run as one batch, in one call of the database
  // (it reads them in order, as a server reads its socket: half the cost of a call per message).
  const terminateAt = messages.findIndex((message) => message[0] === 0x58 && message.length === 5);
  const batch = terminateAt === -1 ? messages : messages.slice(0, terminateAt);
  const terminate = terminateAt !== -1;
  const onRawData = (data) => {
    // A view of the database's memory, valid during the call only: copy it.
    out.push(data.slice());
    size += data.length;
  };
  await pg.runExclusive(async () => {
    if (startup) await pg.execProtocolRawStream(startup, { onRawData });
    if (batch.length > 0) await pg.execProtocolRawStream(batch.length === 1 ? batch[0] : Buffer.concat(batch), { onRawData });
  });
  if (size > 0) {
    const bytes = new Uint8Array(size);
    let at = 0;
    for (const part of out) {
      bytes.set(part, at);
      at += part.length;
    }
    forwardNotifications(bytes);
    if (!c.closed) send(c.id, bytes);
  }
  if (terminate) await endConnection(c);
}

/** Ends `c`: whatever transaction it left open is rolled back, so the next connection starts clean. */
async function endConnection(c) {
  if (c.closed) return;
  c.closed = true;
  if (conn === c) conn = null;
  if (pg.isInTransaction()) await pg.exec('ROLLBACK');
}

function quoteIdentifier(name) {
  return `"${String(name).replaceAll('"', '""')}"`;
}

port.on('message', (message) => {
  switch (message.type) {
    case 'open': {
      const previous = conn;
      const c = { id: message.conn, pending: Buffer.alloc(0), started: false, closed: false };
      conn = c;
      if (previous) void enqueue(() => endConnection(previous));
      break;
    }
    case 'data': {
      const c = conn;
      if (!c || c.id !== message.conn || c.closed) break;
      const bytes = message.bytes;
      const incoming = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
      c.pending = c.pending.length === 0 ? incoming : Buffer.concat([c.pending, incoming]);
      void enqueue(() => pump(c));
      break;
    }
    case 'end': {
      const c = conn;
      if (c && c.id === message.conn) void enqueue(() => endConnection(c));
      break;
    }
    case 'listen':
      void enqueue(async () => {
        try {
          await pg.exec(`LISTEN ${quoteIdentifier(message.channel)}`);
          port.postMessage({ type: 'listening', id: message.id });
        } catch (error) {
          port.postMessage({ type: 'failed', id: message.id, message: error instanceof Error ? error.message : String(error) });
        }
      });
      break;
    case 'close':
      void enqueue(async () => {
        if (conn) await endConnection(conn);
        await pg.close();
        port.postMessage({ type: 'closed' });
        port.close();
      });
      break;
  }
});
