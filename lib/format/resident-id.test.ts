import {
  maskLegalName,
  maskResidentId,
  normaliseResidentId,
  residentIdBirthDate,
  residentIdCheckDigit,
  residentIdProblem,
} from './resident-id';

/** A number with the right check digit for its first 17 digits. */
function valid(first17: string): string {
  return first17 + residentIdCheckDigit(first17);
}

describe('the resident identity card number (GB 11643, issue 33)', () => {
  it("accepts the standard's own example and reads its birth date", () => {
    // GB 11643-1999's worked example: 11010519491231002X.
    expect(residentIdProblem('11010519491231002X', '2026-11-27')).toBeNull();
    expect(residentIdBirthDate('11010519491231002X')).toBe('1949-12-31');
  });

  it('refuses a wrong check digit, and says so', () => {
    expect(residentIdProblem('110105194912310021', '2026-11-27')).toBe('checkDigit');
  });

  it('normalises what a buyer types: spaces, dashes, a lower-case x', () => {
    expect(normaliseResidentId(' 110105 19491231 002x ')).toBe('11010519491231002X');
  });

  it('names the first problem: length, characters, region, birth date', () => {
    const today = '2026-11-27';
    expect(residentIdProblem('1101051949123100', today)).toBe('length');
    expect(residentIdProblem('1101051949123100AX', today)).toBe('characters');
    expect(residentIdProblem(valid('91010519491231002'), today)).toBe('region');
    expect(residentIdProblem(valid('11010519490231002'), today)).toBe('birthDate'); // 31 February
    expect(residentIdProblem(valid('11010520261128002'), today)).toBe('birthDate'); // born tomorrow
    expect(residentIdProblem(valid('11010518991231002'), today)).toBe('birthDate');
    expect(residentIdProblem(valid('11010520000229002'), today)).toBeNull(); // a real 29 February
  });

  it('shows only the masked forms', () => {
    expect(maskResidentId('11010519491231002X')).toBe('1101**********002X');
    expect(maskLegalName('张三')).toBe('张*');
    expect(maskLegalName('欧阳娜娜')).toBe('欧***');
    expect(maskLegalName('李')).toBe('李*');
  });
});
