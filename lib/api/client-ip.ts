/**
 * The client's address for rate limits. The right-most X-Forwarded-For entry is the one added by the proxy nearest
 * to us (Next's own server adds it), so a client cannot choose it by sending its own header; then X-Real-IP.
 * Behind a chain of proxies, put the last trusted proxy in front and it still holds (docs/decisions.md).
 */
export function clientIp(headers: Headers): string {
  const forwarded = headers.get('x-forwarded-for');
  if (forwarded) {
    const parts = forwarded.split(',').map((p) => p.trim()).filter(Boolean);
    const last = parts[parts.length - 1];
    if (last) return last.slice(0, 64);
  }
  const real = headers.get('x-real-ip')?.trim();
  return real ? real.slice(0, 64) : 'unknown';
}
