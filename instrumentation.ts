/**
 * Runs once when a server process starts (Next.js instrumentation): the background jobs (order expiry sweep,
 * chain-up) start here in the Node.js runtime when JOBS=inline, the default.
 */
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  const { startInlineJobs } = await import('./lib/jobs/start-inline');
  startInlineJobs();
}
