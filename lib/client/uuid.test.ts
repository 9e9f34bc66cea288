import { webcrypto } from 'node:crypto';
import { randomUuid } from './uuid';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

it('makes a version 4 UUID where the browser has no crypto.randomUUID (plain http, older in-app browsers)', () => {
  // A browser's crypto without randomUUID: getRandomValues fills the array it is given and answers it.
  const insecure = { getRandomValues: <T extends Uint8Array>(array: T): T => (webcrypto.getRandomValues(array), array) };
  const ids = new Set(Array.from({ length: 100 }, () => randomUuid(insecure)));
  expect(ids.size).toBe(100);
  for (const id of ids) expect(id).toMatch(UUID_V4);
});

it("uses the browser's own where it has one", () => {
  expect(randomUuid({ getRandomValues: () => null as never, randomUUID: () => 'from-the-browser' })).toBe('from-the-browser');
});
