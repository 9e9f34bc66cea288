import { findUnstorableText } from './text-check';

// Text PostgreSQL cannot store is found by field before it reaches the database (security review, finding 8).

describe('findUnstorableText', () => {
  it('names the first field, in document order, holding NUL or a lone surrogate', () => {
    expect(findUnstorableText({ a: 'fine', b: ['ok', { c: 'x\u0000y' }], d: '\ud800' })).toBe('b.1.c');
    expect(findUnstorableText({ a: { '\udc00': 1 }, b: 'a\u0000' })).toBe('a.(key)');
    expect(findUnstorableText('\u0000')).toBe('body');
    expect(findUnstorableText({ a: '\ud83d\ude00', b: [1, null, true] })).toBeNull();
  });

  it('walks a body nested tens of thousands deep without overflowing the stack', () => {
    const depth = 30_000;
    expect(findUnstorableText(JSON.parse(`{"a":${'['.repeat(depth)}"ok"${']'.repeat(depth)}}`))).toBeNull();
    const nested = JSON.parse(`{"a":${'{"b":'.repeat(depth)}"x\\u0000"${'}'.repeat(depth)}}`);
    expect(findUnstorableText(nested)).toBe(['a', ...Array.from({ length: depth }, () => 'b')].join('.'));
  });
});
