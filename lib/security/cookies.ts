/**
 * The one reading of a Cookie header in the store (issue 30: the session, the device id and the WeChat cookies each
 * had their own loop). The header is the client's to write, so anything goes: parts without `=`, empty names, spaces,
 * a name sent twice (a browser sends every cookie that matches, e.g. this host's and a parent domain's of one name),
 * escapes that do not decode. None of it throws: what is not a cookie is skipped, and a value that does not decode
 * reads as null (decodeCookieValue), for its caller to treat as any other bad value.
 */

/** The raw values of every cookie named `name` in a Cookie header, in the order sent. */
export function cookieValues(header: string | null | undefined, name: string): string[] {
  const values: string[] = [];
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    const key = eq > 0 ? part.slice(0, eq).trim() : '';
    if (key !== '' && key === name) values.push(part.slice(eq + 1).trim());
  }
  return values;
}

/** The raw value of cookie `name`, or undefined; of a name sent more than once, the last one sent. */
export function cookieValue(header: string | null | undefined, name: string): string | undefined {
  return cookieValues(header, name).at(-1);
}

/** A cookie value URL-decoded (as browsers' `encodeURIComponent` and next-auth write them), or null when it holds a malformed escape. */
export function decodeCookieValue(value: string): string | null {
  try {
    return decodeURIComponent(value);
  } catch {
    return null;
  }
}
