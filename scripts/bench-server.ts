/** What the benchmarks share: the storefront's entry server started and stopped as `npm start` runs it, and percentiles. */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { SERVER_OUT } from './build-server';

/**
 * Starts the entry server on `port` in its own process group, compiled as `npm start` runs it (.next-server/server.js,
 * made by buildIfNeeded; issue 34). BENCH_NODE_ARGS passes flags to its node (e.g. --cpu-prof).
 */
export function startServer(port: number): ChildProcess {
  const nodeArgs = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const server = spawn(process.execPath, [...nodeArgs, SERVER_OUT], {
    env: { ...process.env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  server.stdout?.on('data', () => {});
  server.stderr?.on('data', (c: Buffer) => process.stderr.write(`[server] ${c.toString()}`));
  return server;
}

/** Starts `npm run worker` (the background jobs, for servers started with JOBS=off) in its own process group. */
export function startJobsWorker(): ChildProcess {
  const worker = spawn(process.execPath, ['--conditions=react-server', '--import', 'tsx', 'scripts/worker.ts'], {
    env: { ...process.env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  worker.stdout?.on('data', () => {});
  worker.stderr?.on('data', (c: Buffer) => process.stderr.write(`[worker] ${c.toString()}`));
  return worker;
}

export function stopServer(server: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (server.exitCode !== null) return resolve();
    server.once('exit', () => resolve());
    try {
      process.kill(-server.pid!, 'SIGTERM');
    } catch {
      resolve();
    }
  });
}

/**
 * The CPU time (user + system, in ms) the process has used so far, from Linux's /proc (null elsewhere or once it has
 * exited). Unlike wall times, it does not grow when other work on the machine takes the cores: a benchmark's
 * "CPU per call" compares across runs on a busy machine.
 */
export function cpuMsOf(pid: number | undefined): number | null {
  if (pid === undefined) return null;
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    // utime and stime, the 14th and 15th fields of the line (12th and 13th after the command's closing ")"), in ticks of
    // 1/100 s (Linux's USER_HZ).
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return null;
  }
}

/** Waits until the health check answers 200, for up to 60 s. */
export async function waitForHealth(check: () => Promise<{ status: number }>, port: number): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    try {
      if ((await check()).status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`the server did not answer on port ${port} within 60 s`);
}

/** The p-th percentile of `values` as "12.3 ms", or "-" when there are none. */
export function percentile(values: number[], p: number): string {
  const ms = percentileMs(values, p);
  return ms === null ? '-' : `${ms.toFixed(1)} ms`;
}

export function percentileMs(values: number[], p: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

/** A whole number of 1 or more from the environment, else `fallback`; anything else stops the benchmark with a clear line. */
export function intEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) {
    console.error(`${name}: must be a whole number of 1 or more (got "${raw}")`);
    process.exit(2);
  }
  return value;
}
