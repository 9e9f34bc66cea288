/** A Cookie header as name → raw value (a repeated name keeps its last value). */
export function parseCookieHeader(header: string): Map<string, string> {
  const jar = new Map<string, string>();
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    const name = part.slice(0, eq).trim();
    if (eq > 0) jar.set(name, part.slice(eq + 1).trim());
  }
  return jar;
}
