import 'server-only';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { Duplex } from 'node:stream';
import { Worker } from 'node:worker_threads';
import postgres from 'postgres';

/**
 * The embedded database off the request thread (issue 16; DESIGN §1): PGlite runs in a worker thread
 * (lib/db/embedded-worker.mjs) and the server talks to it with postgres.js, the driver it uses for a PostgreSQL
 * server, over one connection carried by the worker's message port. A statement then costs the request thread the
 * bytes it sends and reads, not the statement's run: a slow one no longer stalls every HTTP connection.
 *
 * One connection (`max: 1`), because PGlite has one session: postgres.js pipelines the statements of concurrent calls
 * on it and gives it to one transaction at a time, as PGlite's own lock did in process. LISTEN runs on that session
 * in the worker, which forwards each notification (`listen` below), since postgres.js would open a second connection.
 */
export type Embedded = {
  sql: postgres.Sql;
  /** LISTEN on `channel`; resolves once listening (notifications of the database's one session). */
  listen: (channel: string, onNotice: (payload: string) => void) => Promise<void>;
  close: () => Promise<void>;
};

type FromWorker =
  | { type: 'ready' }
  | { type: 'data'; conn: number; bytes: Uint8Array }
  | { type: 'notify'; channel: string; payload: string }
  | { type: 'listening'; id: number }
  | { type: 'failed'; id: number; message: string }
  | { type: 'fatal'; message: string }
  | { type: 'closed' };

/** The worker's file, next to this one in the sources; the server, the scripts and the tests run from the project root. */
export function embeddedWorkerPath(): string {
  const file = path.join(process.cwd(), 'lib', 'db', 'embedded-worker.mjs');
  if (!existsSync(file)) throw new Error(`the embedded database's worker is missing: ${file} (run from the project root)`);
  return file;
}

/** A connection to the worker, shaped as the socket postgres.js expects (`options.socket`). */
class WorkerConnection extends Duplex {
  readyState: 'open' | 'closed' = 'open';

  constructor(
    private readonly worker: Worker,
    readonly id: number,
  ) {
    super();
  }

  override _read(): void {}

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    // A copy with a buffer of its own, handed over rather than cloned (a Buffer may view a shared pool).
    const bytes = new Uint8Array(chunk);
    this.worker.postMessage({ type: 'data', conn: this.id, bytes }, [bytes.buffer]);
    callback();
  }

  override _final(callback: (error?: Error | null) => void): void {
    this.worker.postMessage({ type: 'end', conn: this.id });
    callback();
    this.finish();
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    if (this.readyState === 'open') this.worker.postMessage({ type: 'end', conn: this.id });
    this.readyState = 'closed';
    callback(error);
  }

  /** The worker answered: hand the bytes to postgres.js. */
  received(bytes: Uint8Array): void {
    if (this.readyState === 'open') this.push(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  }

  /** Closed from either side: postgres.js sees `close` (and reconnects when it has work). */
  finish(error?: Error): void {
    if (this.readyState === 'closed') return;
    this.readyState = 'closed';
    this.push(null);
    this.destroy(error);
  }
}

/** Starts the embedded database under `dir` (in memory when `dir` is undefined) in its own thread. */
export function openEmbedded(dir: string | undefined): Embedded {
  const worker = new Worker(embeddedWorkerPath(), { workerData: { dir } });
  let current: WorkerConnection | null = null;
  let nextConn = 1;
  let stopped: Error | null = null;
  let onClosed: (() => void) | null = null;
  const listeners = new Map<string, Set<(payload: string) => void>>();
  const pending = new Map<number, { resolve: () => void; reject: (error: Error) => void }>();
  let nextListen = 1;

  const ready = new Promise<void>((resolve, reject) => {
    worker.on('message', (message: FromWorker) => {
      switch (message.type) {
        case 'ready':
          resolve();
          break;
        case 'data':
          if (current?.id === message.conn) current.received(message.bytes);
          break;
        case 'notify':
          for (const fn of listeners.get(message.channel) ?? []) fn(message.payload);
          break;
        case 'listening':
          pending.get(message.id)?.resolve();
          pending.delete(message.id);
          break;
        case 'failed':
          pending.get(message.id)?.reject(new Error(message.message));
          pending.delete(message.id);
          break;
        case 'fatal':
          stopped = new Error(`the embedded database cannot open: ${message.message}`);
          reject(stopped);
          break;
        case 'closed':
          onClosed?.();
          break;
      }
    });
    const stop = (error: Error) => {
      stopped ??= error;
      reject(stopped);
      current?.finish(stopped);
      for (const { reject: fail } of pending.values()) fail(stopped);
      pending.clear();
    };
    worker.on('error', (error) => {
      console.error('[embedded database] the worker failed', error);
      stop(error);
    });
    worker.on('exit', (code) => stop(new Error(`the embedded database stopped (worker exit ${code})`)));
  });
  // Not every caller queries (a script may only close): a failure to open is reported by the first statement.
  ready.catch(() => {});

  // `socket` is documented (README, "Custom socket") but missing from postgres.js's types; `max_pipeline` is read by
  // its options' parser (default 100) and missing from both.
  const options: postgres.Options<Record<string, never>> & { socket: () => Promise<Duplex>; max_pipeline: number } = {
    max: 1,
    // The connection is the worker's, never a network's: no recycling, no idle close.
    max_lifetime: 0,
    idle_timeout: 0,
    // No cap on the statements in flight. postgres.js (3.4.9, `execute` in its connection.js) lends the connection to a
    // transaction when it writes the BEGIN, but skips that step when the BEGIN is the statement that fills the
    // pipeline (100 by default): the BEGIN still runs, `sql.begin()` fails with "Cannot set properties of undefined
    // (setting 'onclose')", the transaction's first statement throws unhandled and never answers, and the session stays
    // in that transaction for whatever runs next. Without the cap nothing else can skip it: a write to the worker
    // completes at once, so the driver never sees backpressure. Statements then reach the worker as they come, and it
    // runs what it has received in one call (`pump`), as it ran each wave of 101 before (lib/db/embedded-begin.test.ts).
    max_pipeline: Number.POSITIVE_INFINITY,
    onnotice: () => {},
    socket: async () => {
      await ready;
      if (stopped) throw stopped;
      // One session, so one connection: a second one (postgres.js's own LISTEN, say) is refused, not let in.
      if (current && current.readyState === 'open') throw new Error('the embedded database takes one connection at a time');
      const connection = new WorkerConnection(worker, nextConn++);
      current = connection;
      worker.postMessage({ type: 'open', conn: connection.id });
      return connection;
    },
  };
  const sql = postgres(options);

  return {
    sql,
    listen: async (channel, onNotice) => {
      await ready;
      let set = listeners.get(channel);
      if (!set) {
        set = new Set();
        listeners.set(channel, set);
      }
      set.add(onNotice);
      const id = nextListen++;
      await new Promise<void>((resolve, reject) => {
        pending.set(id, { resolve, reject });
        worker.postMessage({ type: 'listen', id, channel });
      });
    },
    close: async () => {
      await sql.end({ timeout: 5 });
      if (stopped) return;
      const closed = new Promise<void>((resolve) => {
        onClosed = resolve;
        worker.once('exit', () => resolve());
      });
      worker.postMessage({ type: 'close' });
      await closed;
      await worker.terminate();
    },
  };
}
