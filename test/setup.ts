// Matchers such as toBeInTheDocument / toHaveAttribute for component tests (jsdom).
import '@testing-library/jest-dom';
import './dialog-polyfill';

// The proxy counts page views into a per-process recorder that flushes every 5 s (lib/channel/page-views.ts). In a
// test file that recorder's database is gone once the file's tests are done; a flush after that would log, and jest
// fails the whole run on a log after tests are done. Each file stops the recorder it started.
afterAll(() => {
  const g = globalThis as { storefrontPageViews?: { timer: ReturnType<typeof setInterval> } };
  if (g.storefrontPageViews) {
    clearInterval(g.storefrontPageViews.timer);
    delete g.storefrontPageViews;
  }
});
