import { IncomingMessage, type ServerResponse } from 'node:http';
import { securityHeaders } from '../security/headers';
import { msg, renderMessage } from '../procedure/messages';
import { askedLocale } from '../i18n/locale';
import { CLIENT_IP_HEADER } from '../security/forwarded';
import { clientGroup } from '../security/address';
import type { GateAnswer, GatedCall } from '../order/buy-gate';

/**
 * The buy lane (issue 16; docs/orders.md, "The buy lane"): the entry server (server.ts) lets at most `running` buy
 * calls into the app at once; the others wait at the door in the order they came, before the framework has spent
 * anything on them. In a drop the first taps are then answered first, in a few milliseconds each, instead of every
 * tap of the burst being half-handled at once and all of them answered at the end; and browsing during the drop is not
 * stuck behind a few hundred buy calls in progress. More than `inFlight` buy calls here (reading, running and waiting)
 * and the next one is answered "busy" at once, as the dispatcher's load shedding answers (HTTP 503, code 1001,
 * Retry-After).
 *
 * What a client cannot do with it (issue 29, findings 1 and 2):
 * - hold a place by sending its body slowly: a call is read whole at the door, within `bodyTimeoutMs`, before it waits
 *   or runs (a place is only ever held by a call the app can finish at once), and a body that does not arrive in time
 *   is answered 408 and its connection closed;
 * - fill the line from one address: calls of one client (its address, an IPv6 /64 as one) in the lane, reading,
 *   waiting or running, are capped at `perClient`; beyond it, busy;
 * - wait for ever: a call that waited `maxWaitMs` without a place is answered busy (the store's client gave up after 5
 *   s anyway, spec §7);
 * - queue before a drop opens and jump the taps at the opening: once its body is read, the app's gate answers a buy
 *   of a sale that has not opened ("not open yet", as the buy itself would) at once, so nothing waits in the line for
 *   the opening (`BuyGate`, installed by the app at start: lib/order/buy-gate.ts);
 * - take an admitted buyer's place without an admission (issue 35): the gate answers an open waiting-room sale's buy
 *   whose admission is missing, not this store's or another sale's (an HMAC, no read), as the buy itself would.
 *
 * Plain Node: server.ts loads it outside the app's bundle; the app installs its gate on globalThis.
 */

/** The calls that take the lane: the API's buy (`order/create`, marked `shed` in lib/order/procedures.ts). */
export const BUY_LANE_PATHS: readonly string[] = ['/api/market/api/order/create'];

/** A buy's body is a few hundred bytes of JSON; the lane reads no further (413 beyond, connection closed). */
export const MAX_BUY_BODY_BYTES = 8 * 1024;

export type BuyLaneLimits = {
  /** Buy calls let into the app at once (`BUY_MAX_RUNNING`). */
  running: number;
  /** Buy calls in this process, reading, running and waiting, beyond which the next is answered busy (`BUY_MAX_IN_FLIGHT`). */
  inFlight: number;
  /** Buy calls of one client address (an IPv6 /64 as one) in the lane at once (`BUY_MAX_PER_CLIENT`). */
  perClient: number;
  /** How long a buy call's body may take to arrive once its headers have (`BUY_BODY_TIMEOUT_MS`). */
  bodyTimeoutMs: number;
  /** How long a buy call may wait for a place before it is answered busy (`BUY_MAX_WAIT_MS`). */
  maxWaitMs: number;
};

/** The app's check of a buy call at the door: its answer to send as it is, or null to let the call into the line. */
export type BuyGate = (call: GatedCall) => Promise<GateAnswer | null>;

const installed = globalThis as unknown as { storefrontBuyGate?: BuyGate; storefrontBusyAnswer?: () => void };

/**
 * Installs what counts the lane's busy answers (lib/monitor/drop-meter.ts `noteBusyAnswer`, from instrumentation.ts:
 * the live drop view and the busy alert, issue 32). Installed rather than imported: server.ts loads the lane outside
 * the app's server-only modules. Null removes it.
 */
export function installBusyAnswer(note: (() => void) | null): void {
  if (note) installed.storefrontBusyAnswer = note;
  else delete installed.storefrontBusyAnswer;
}

/** Installs the app's gate (lib/order/buy-gate.ts, from instrumentation.ts); the lane asks it for every buy call. Null removes it. */
export function installBuyGate(gate: BuyGate | null): void {
  if (gate) installed.storefrontBuyGate = gate;
  else delete installed.storefrontBuyGate;
}

export type BuyLane = {
  /** Reads the call's body, asks the gate, then runs `handle` (with the call, its body replayed) now or once a place is free. */
  admit: (req: IncomingMessage, res: ServerResponse, handle: (req: IncomingMessage) => void) => void;
  /**
   * Buy calls at the door (their body being read, or the gate asked), running in the app, and waiting for a place (for
   * tests and the health of the process).
   */
  counts: () => { reading: number; running: number; waiting: number };
};

/**
 * Whether a request is a buy call: POST to one of BUY_LANE_PATHS, read as the app reads it, so no spelling of the path
 * that reaches the buy gets past the lane: a query or a fragment, dot segments (`order/./create`) and escaped
 * characters (`order%2Fcreate`) all reach it.
 */
export function takesTheLane(req: Pick<IncomingMessage, 'method' | 'url'>): boolean {
  if (req.method !== 'POST' || !req.url) return false;
  let path: string;
  try {
    path = decodeURIComponent(new URL(req.url, 'http://lane.invalid').pathname);
  } catch {
    return false;
  }
  return BUY_LANE_PATHS.includes(path);
}

/**
 * The busy answer: what `dispatch` answers when it sheds (lib/server/dispatcher.ts), so clients see one answer, in the
 * language the caller asks for (docs/api.md, "Languages").
 */
export function busyBody(acceptLanguage: string | undefined): string {
  return JSON.stringify({ code: 1001, message: renderMessage(msg('busy'), askedLocale(acceptLanguage) ?? 'en'), data: null });
}

/**
 * The request Next gets once the lane has read the body: the same request (method, URL, headers, socket), its body
 * replayed from memory, so the framework reads it as if it were arriving.
 */
function replayed(req: IncomingMessage, body: Buffer): IncomingMessage {
  const copy = new IncomingMessage(req.socket);
  copy.method = req.method;
  copy.url = req.url;
  copy.headers = req.headers;
  copy.rawHeaders = req.rawHeaders;
  copy.httpVersionMajor = req.httpVersionMajor;
  copy.httpVersionMinor = req.httpVersionMinor;
  copy.httpVersion = req.httpVersion;
  copy.complete = true;
  if (body.length > 0) copy.push(body);
  copy.push(null);
  return copy;
}

type Waiting = { res: ServerResponse; start: () => void; timer: NodeJS.Timeout };

export function createBuyLane(limits: BuyLaneLimits): BuyLane {
  let reading = 0;
  let running = 0;
  const waiting: Waiting[] = [];
  /** Calls in the lane (reading, waiting, running) per client group. */
  const perClient = new Map<string, number>();

  const headersFor = (req: IncomingMessage) => ({
    ...securityHeaders({ https: req.headers['x-forwarded-proto'] === 'https' }),
    'content-type': 'application/json',
    'cache-control': 'no-store',
  });

  const busy = (req: IncomingMessage, res: ServerResponse) => {
    if (res.headersSent || res.destroyed) return;
    installed.storefrontBusyAnswer?.(); // the live drop view and the busy alert (issue 32)
    res.writeHead(503, { ...headersFor(req), 'retry-after': '1' });
    res.end(busyBody(req.headers['accept-language']));
  };

  /** Answers and closes the connection: what is left of the body is never read. */
  const refuse = (req: IncomingMessage, res: ServerResponse, status: 408 | 413, message: string) => {
    if (!res.headersSent && !res.destroyed) {
      res.writeHead(status, { ...headersFor(req), connection: 'close' });
      res.end(JSON.stringify({ code: 400, message, data: null }));
    }
    req.socket.destroySoon?.();
  };

  const next = () => {
    while (running < limits.running && waiting.length > 0) {
      const call = waiting.shift()!;
      clearTimeout(call.timer);
      call.start();
    }
  };

  /**
   * Into the app now, or into the line. A call's place is given back when its connection closes, whenever that is:
   * waiting (the buyer hung up: out of the line, their retry with the same key comes as a new call) or running.
   */
  const enter = (req: IncomingMessage, res: ServerResponse, run: () => void) => {
    if (res.destroyed || res.closed) return;
    let place: 'waiting' | 'running' = 'waiting';
    const start = () => {
      place = 'running';
      running++;
      run();
    };
    const call: Waiting = {
      res,
      start,
      timer: setTimeout(() => {
        const at = waiting.indexOf(call);
        if (at === -1) return;
        waiting.splice(at, 1);
        busy(req, res);
      }, limits.maxWaitMs),
    };
    call.timer.unref?.();
    res.once('close', () => {
      if (place === 'running') {
        running--;
        next();
        return;
      }
      clearTimeout(call.timer);
      const at = waiting.indexOf(call);
      if (at !== -1) waiting.splice(at, 1);
    });
    if (running < limits.running && waiting.length === 0) {
      clearTimeout(call.timer);
      start();
      return;
    }
    waiting.push(call);
  };

  /** Reads the whole body within the deadline; resolves with it, or null once the call was answered or is gone. */
  const readBody = (req: IncomingMessage, res: ServerResponse): Promise<Buffer | null> =>
    new Promise((resolve) => {
      const declared = req.headers['content-length'];
      if (declared !== undefined && /^\d+$/.test(declared) && Number(declared) > MAX_BUY_BODY_BYTES) {
        refuse(req, res, 413, `body: must be ${MAX_BUY_BODY_BYTES} bytes or less`);
        return resolve(null);
      }
      const chunks: Buffer[] = [];
      let size = 0;
      let settled = false;
      const settle = (body: Buffer | null) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        req.off('data', onData);
        req.off('end', onEnd);
        req.off('error', onGone);
        req.off('aborted', onGone);
        res.off('close', onGone);
        resolve(body);
      };
      const onData = (chunk: Buffer) => {
        size += chunk.length;
        if (size > MAX_BUY_BODY_BYTES) {
          refuse(req, res, 413, `body: must be ${MAX_BUY_BODY_BYTES} bytes or less`);
          return settle(null);
        }
        chunks.push(chunk);
      };
      const onEnd = () => settle(Buffer.concat(chunks));
      const onGone = () => settle(null);
      const timer = setTimeout(() => {
        refuse(req, res, 408, `body: did not arrive within ${limits.bodyTimeoutMs} ms`);
        settle(null);
      }, limits.bodyTimeoutMs);
      timer.unref?.();
      req.on('data', onData);
      req.once('end', onEnd);
      req.once('error', onGone);
      req.once('aborted', onGone);
      res.once('close', onGone);
    });

  return {
    admit(req, res, handle) {
      const group = clientGroup(String(req.headers[CLIENT_IP_HEADER] ?? ''));
      const mine = perClient.get(group) ?? 0;
      if (reading + running + waiting.length >= limits.inFlight || mine >= limits.perClient) {
        busy(req, res);
        // The body is not wanted: drop the connection once the answer is out rather than read the rest.
        res.once('finish', () => req.socket.destroySoon?.());
        return;
      }
      perClient.set(group, mine + 1);
      res.once('close', () => {
        const left = (perClient.get(group) ?? 1) - 1;
        if (left > 0) perClient.set(group, left);
        else perClient.delete(group);
      });
      reading++;
      void readBody(req, res).then(async (body) => {
        if (body === null) {
          reading--;
          return;
        }
        const gate = installed.storefrontBuyGate;
        let answer: GateAnswer | null = null;
        if (gate) {
          try {
            answer = await gate({ headers: req.headers, body: body.toString('utf8') });
          } catch (error) {
            // The gate only saves work; the buy itself answers the same, so an error here lets the call in.
            console.error('[buy-lane] the gate failed; letting the call in', error);
          }
        }
        reading--;
        if (res.destroyed) return;
        if (answer) {
          res.writeHead(answer.status, headersFor(req));
          res.end(answer.body);
          return;
        }
        enter(req, res, () => handle(replayed(req, body)));
      });
    },
    counts: () => ({ reading, running, waiting: waiting.length }),
  };
}
