import { SEED_CHANNELS } from '../lib/demo/seed-data';

export const PORT = Number(process.env.E2E_PORT ?? 3100);

/** The URL of a page on a demo channel's own host, e.g. channelUrl('aurora', '/goods/detail/1'). */
export function channelUrl(channel: string, path = '/'): string {
  return `http://${channel}.localhost:${PORT}${path}`;
}

export function seedChannel(key: string) {
  const channel = SEED_CHANNELS.find((c) => c.key === key);
  if (!channel) throw new Error(`no demo channel ${key}`);
  return channel;
}

/** "#0f766e" → "rgb(15, 118, 110)", as getComputedStyle reports it. */
export function hexToRgb(hex: string): string {
  const n = Number.parseInt(hex.slice(1), 16);
  return `rgb(${(n >> 16) & 255}, ${(n >> 8) & 255}, ${n & 255})`;
}

/**
 * Where e2e/console.spec.ts leaves the demo owner it enrolled (name, password, TOTP secret) for the console specs that
 * run after it (issue 31): the demo prints one enrolment link, which works once.
 */
export function demoOwnerFile(): string {
  return `.data/e2e-console-owner-${PORT}.json`;
}
