/**
 * Whether a client's `Accept-Encoding` takes `coding` (RFC 9110 §12.5.3): its own entry decides, else a `*` entry;
 * `q=0` refuses. The header is the client's and may be anything: what cannot be read is not an acceptance.
 */
export function acceptsCoding(header: string | string[] | undefined, coding: 'gzip' | 'br'): boolean {
  const value = Array.isArray(header) ? header.join(',') : (header ?? '');
  let wildcard: boolean | null = null;
  for (const part of value.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (name !== coding && name !== '*') continue;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const accepted = q === undefined || Number(q.slice(2)) > 0;
    if (name === coding) return accepted;
    wildcard ??= accepted;
  }
  return wildcard ?? false;
}
