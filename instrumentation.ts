/**
 * Runs once when a server process starts (Next.js instrumentation), in the Node.js runtime:
 * - the background jobs (order expiry sweep, chain-up) start here when JOBS=inline, the default;
 * - the buy lane's gate is installed (lib/order/buy-gate.ts): a buy of a sale that has not opened is answered at the
 *   door instead of waiting in the line (issue 29); the waiting room's position reads are answered at the entry
 *   server's door (lib/server/queue-door.ts, issue 35), and so are shared pages the caches hold (lib/server/page-door.ts,
 *   issue 34);
 * - the sold-out memory starts listening for returned stock (lib/order/sold-out.ts), so a drop's first sell-out is
 *   noted at once instead of after a listener is first asked for (it notes nothing until it hears);
 * - the caches start hearing the tags other processes invalidate (lib/cache/store.ts, issue 31), so a write made on
 *   the other server or by the worker shows on this one's next page view;
 * - the buy lane's busy answers are counted for the live drop view and the busy alert (issue 32), and this process's
 *   buy calls and busy answers are added to the deployment's counts once a second (lib/monitor/drop-meter.ts), in every
 *   server process whatever JOBS says, since every process answers buys.
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  const { startInlineJobs } = await import('./lib/jobs/start-inline');
  startInlineJobs();
  const { gateBuyCall } = await import('./lib/order/buy-gate');
  const { installBuyGate } = await import('./lib/server/buy-lane');
  installBuyGate((call) => gateBuyCall(call));
  // A waiting room's position reads are answered at the entry server's door (issue 35).
  const { readQueueAtTheDoor } = await import('./lib/server/queue-door-read');
  const { installQueueDoor } = await import('./lib/server/queue-door');
  installQueueDoor(readQueueAtTheDoor);
  // Shared pages the caches hold fresh are answered there too, on the proxy's decision (issue 34).
  const { readPageAtTheDoor } = await import('./lib/server/page-door-read');
  const { installPageDoor } = await import('./lib/server/page-door');
  installPageDoor(readPageAtTheDoor);
  const { getDb } = await import('./lib/db/client');
  // The lane's busy answers reach the live drop view and the busy alert (issue 32).
  const { installBusyAnswer } = await import('./lib/server/buy-lane');
  const { noteBusyAnswer, startDropMeterFlush } = await import('./lib/monitor/drop-meter');
  installBusyAnswer(() => noteBusyAnswer(getDb));
  startDropMeterFlush(getDb);
  const { watchStockReturns } = await import('./lib/order/sold-out');
  void watchStockReturns(getDb());
  const { watchTagNotices } = await import('./lib/cache/store');
  void watchTagNotices(getDb());
}
