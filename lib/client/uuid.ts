/**
 * A random (version 4) UUID in the browser. `crypto.randomUUID` exists only in secure contexts and in browsers from
 * 2021 on; a store reached over plain http (a custom domain before its certificate, a test host) or an older in-app
 * browser has only `crypto.getRandomValues`, which every browser the store supports has. Without this, the page
 * tracker threw on such a page and the whole page fell to the error screen.
 */
export function randomUuid(random: Pick<Crypto, 'getRandomValues'> & { randomUUID?: () => string } = crypto): string {
  if (typeof random.randomUUID === 'function') return random.randomUUID();
  const bytes = random.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
