/**
 * Text the database cannot store (security review, finding 8): PostgreSQL text and jsonb refuse the NUL character,
 * and a lone UTF-16 surrogate cannot be encoded as UTF-8. Such input is refused up front with the field it is in,
 * rather than failing inside an INSERT as an HTTP 500.
 */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function badText(value: string): boolean {
  return value.includes('\u0000') || LONE_SURROGATE.test(value);
}

/** A value still to look at, with the way to it (kept as links, so a deep path costs nothing until it is named). */
type Step = { value: unknown; segment: string | null; parent: Step | null; key: string | null };

function pathOf(step: Step, last?: string): string {
  const segments: string[] = last === undefined ? [] : [last];
  for (let s: Step | null = step; s; s = s.parent) if (s.segment !== null) segments.push(s.segment);
  return segments.reverse().join('.') || 'body';
}

/**
 * The path of the first string (or key) in a parsed JSON value that holds NUL or a lone surrogate, or null. Depth
 * first and in document order, without recursion: a 64 KiB body can nest 30,000 deep, which would overflow the call
 * stack (an HTTP 500 the API fuzz test found).
 */
export function findUnstorableText(value: unknown): string | null {
  const stack: Step[] = [{ value, segment: null, parent: null, key: null }];
  while (stack.length > 0) {
    const step = stack.pop()!;
    if (step.key !== null && badText(step.key)) return pathOf(step.parent!, '(key)');
    const v = step.value;
    if (typeof v === 'string') {
      if (badText(v)) return pathOf(step);
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push({ value: v[i], segment: String(i), parent: step, key: null });
    } else if (v && typeof v === 'object') {
      const entries = Object.entries(v);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, item] = entries[i]!;
        stack.push({ value: item, segment: key, parent: step, key });
      }
    }
  }
  return null;
}
