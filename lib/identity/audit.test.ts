import { redact } from '../operator/audit';

// Issue 33: an operator call that carries a buyer's ID number or legal name (an identity block, a lookup) never keeps
// them raw in the audit trail.

describe("the audit trail and a buyer's identity", () => {
  it('redacts the ID number, the legal name and their sealed forms at any depth', () => {
    expect(
      redact({
        channel: 'AURORA',
        kind: 'identity',
        idNumber: '11010519491231002X',
        nested: [{ legalName: '张三', nameSealed: 'a.b.c', idNumberSealed: 'd.e.f', maskedIdNumber: '1101**********002X' }],
      }),
    ).toEqual({
      channel: 'AURORA',
      kind: 'identity',
      idNumber: '[redacted]',
      nested: [{ legalName: '[redacted]', nameSealed: '[redacted]', idNumberSealed: '[redacted]', maskedIdNumber: '1101**********002X' }],
    });
  });
});
