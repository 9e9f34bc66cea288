import { generateCode, hashCode, normalizeCode } from './service';

// Codes (DESIGN §10): unguessable, and forgiving of how a person types them.

describe('codes', () => {
  it('are 26 base32 characters in groups of 4, with 128 random bits, never the same twice', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 2000; i++) {
      const code = generateCode();
      expect(code).toMatch(/^[0-9A-HJKMNP-TV-Z]{4}(-[0-9A-HJKMNP-TV-Z]{1,4}){6}$/);
      expect(normalizeCode(code)).toHaveLength(26);
      seen.add(code);
    }
    expect(seen.size).toBe(2000);
  });

  it('spread over the whole alphabet (no stuck characters)', () => {
    const counts = new Map<string, number>();
    for (let i = 0; i < 2000; i++) for (const ch of normalizeCode(generateCode()).slice(1)) counts.set(ch, (counts.get(ch) ?? 0) + 1);
    expect(counts.size).toBe(32);
  });

  it('match however they are typed: case, spaces, dashes and look-alike letters', () => {
    const code = generateCode();
    const typed = ` ${code.toLowerCase().replace(/-/g, ' ')} `;
    expect(hashCode(typed)).toBe(hashCode(code));
    expect(hashCode('ABCO-IL00')).toBe(hashCode('abc0110 0'));
    expect(hashCode(code)).not.toBe(hashCode(generateCode()));
  });
});
