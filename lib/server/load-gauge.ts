/**
 * How late this process's event loop runs: a timer asks to fire every `intervalMs` and records how much later than
 * that it fired. When requests arrive faster than the process can answer them, work queues up in the loop and the
 * lag grows, whatever the cause: mostly the request handling itself (the embedded database runs in a thread of its own,
 * lib/db/embedded.ts, so its statements no longer count). The buy call is shed while the lag is high
 * (lib/server/dispatcher.ts), so queued buyers get a fast "busy" instead of waiting seconds in line.
 *
 * Not `perf_hooks.monitorEventLoopDelay`: its histogram hears of a late loop only once its own timer fires after the
 * block, while `lagMs` also counts how overdue this timer is now, so the first call right after a long block already
 * sees it (lib/server/load-shedding.test.ts; measured on Node 20: 24 ms recorded right after a 400 ms block).
 */
export type LoadGauge = { lagMs: () => number; stop: () => void };

export function startLoadGauge(intervalMs = 50, now: () => number = () => performance.now()): LoadGauge {
  let expected = now() + intervalMs;
  let lag = 0;
  const timer = setInterval(() => {
    const t = now();
    const late = Math.max(0, t - expected);
    // Rise at once, fall gently: one quick tick does not mean the queue is gone.
    lag = late >= lag ? late : lag * 0.5 + late * 0.5;
    expected = t + intervalMs;
  }, intervalMs);
  timer.unref?.();
  return {
    lagMs: () => Math.max(lag, now() - expected),
    stop: () => clearInterval(timer),
  };
}
