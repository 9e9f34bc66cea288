/**
 * Text the database cannot store (security review, finding 8): PostgreSQL text and jsonb refuse the NUL character,
 * and a lone UTF-16 surrogate cannot be encoded as UTF-8. Such input is refused up front with the field it is in,
 * rather than failing inside an INSERT as an HTTP 500.
 */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function badText(value: string): boolean {
  return value.includes('\u0000') || LONE_SURROGATE.test(value);
}

/** The path of the first string (or key) in a parsed JSON value that holds NUL or a lone surrogate, or null. */
export function findUnstorableText(value: unknown, path: string[] = []): string | null {
  if (typeof value === 'string') return badText(value) ? (path.join('.') || 'body') : null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findUnstorableText(value[i], [...path, String(i)]);
      if (found) return found;
    }
    return null;
  }
  if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      if (badText(key)) return [...path, '(key)'].join('.');
      const found = findUnstorableText(item, [...path, key]);
      if (found) return found;
    }
  }
  return null;
}
