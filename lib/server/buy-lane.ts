import type { IncomingMessage, ServerResponse } from 'node:http';
import { securityHeaders } from '../security/headers';
import { msg, renderMessage } from '../procedure/messages';
import { askedLocale } from '../i18n/locale';

/**
 * The buy lane (issue 16; docs/orders.md, "The buy lane"): the entry server (server.ts) lets at most `running` buy
 * calls into the app at once; the others wait at the door in the order they came, before the framework has spent
 * anything on them. In a drop the first taps are then answered first, in a few milliseconds each, instead of every
 * tap of the burst being half-handled at once and all of them answered at the end; and browsing during the drop is not
 * stuck behind a few hundred buy calls in progress. More than `inFlight` buy calls here (running and waiting) and the
 * next one is answered "busy" at once, as the dispatcher's load shedding answers (HTTP 503, code 1001, Retry-After).
 *
 * Plain Node: server.ts loads it outside the app's bundle.
 */

/** The calls that take the lane: the API's buy (`order/create`, marked `shed` in lib/order/procedures.ts). */
export const BUY_LANE_PATHS: readonly string[] = ['/api/market/api/order/create'];

export type BuyLaneLimits = {
  /** Buy calls let into the app at once (`BUY_MAX_RUNNING`). */
  running: number;
  /** Buy calls in this process, running and waiting, beyond which the next is answered busy (`BUY_MAX_IN_FLIGHT`). */
  inFlight: number;
};

export type BuyLane = {
  /** Runs `handle` now or once a place is free; a buy call only, see `takesTheLane`. */
  admit: (req: IncomingMessage, res: ServerResponse, handle: () => void) => void;
  /** Buy calls running in the app, and waiting at the door (for tests and the health of the process). */
  counts: () => { running: number; waiting: number };
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

export function createBuyLane(limits: BuyLaneLimits): BuyLane {
  let running = 0;
  const waiting: Array<{ res: ServerResponse; start: () => void }> = [];

  const next = () => {
    while (running < limits.running && waiting.length > 0) {
      const call = waiting.shift()!;
      // A buyer who hung up while waiting is not served: their retry (the same key) comes as a new call.
      if (call.res.destroyed || call.res.writableEnded) continue;
      call.start();
    }
  };

  const start = (res: ServerResponse, handle: () => void) => {
    running++;
    let done = false;
    res.once('close', () => {
      if (done) return;
      done = true;
      running--;
      next();
    });
    handle();
  };

  return {
    admit(req, res, handle) {
      if (running < limits.running && waiting.length === 0) {
        start(res, handle);
        return;
      }
      if (running + waiting.length >= limits.inFlight) {
        res.writeHead(503, {
          ...securityHeaders({ https: req.headers['x-forwarded-proto'] === 'https' }),
          'content-type': 'application/json',
          'retry-after': '1',
          'cache-control': 'no-store',
        });
        res.end(busyBody(req.headers['accept-language']));
        return;
      }
      waiting.push({ res, start: () => start(res, handle) });
    },
    counts: () => ({ running, waiting: waiting.length }),
  };
}
