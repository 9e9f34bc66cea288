import { seededTestDb } from '@/test/db';
import { apiCall } from '@/test/api';
import { FIXTURE_PASSWORD, OPS_HOST, signedInOperator, totpCode } from '@/test/operator-fixtures';
import { registry } from '@/lib/server/registry';
import type { AnyProcedure } from '@/lib/procedure/procedure';

// issue 31, red team: the console's guest calls (sign-in, enrolment, passkey sign-in) skipped the cookie calls' checks,
// so a text/plain form posted from a store page (same-site with the operator host in production) signed the browser in
// to the attacker's account (login CSRF). They now need JSON and the console's own origin, like cookie calls.

const t0 = new Date('2026-11-26T10:00:00Z');
const db = seededTestDb(t0);
const when = new Date(t0.getTime() + 90_000);
const CONSOLE_PAGE = { origin: 'http://ops.localhost:3000', 'sec-fetch-site': 'same-origin' };

const guestPaths = Object.entries(registry as Record<string, AnyProcedure>)
  .filter(([, proc]) => proc.auth === 'operatorGuest')
  .map(([path]) => path);

let owner: Awaited<ReturnType<typeof signedInOperator>>;
beforeAll(async () => {
  owner = await signedInOperator(db, { name: 'csrf.owner', role: 'owner', now: t0 });
});

const signIn = (headers: Record<string, string>) =>
  apiCall(
    db,
    '/ops/api/session/signIn',
    { name: owner.name, password: FIXTURE_PASSWORD, code: totpCode(owner.secret, when) },
    {
      host: OPS_HOST,
      now: when,
      headers,
    },
  );

it('covers every guest call of the console', () => {
  expect(guestPaths).toEqual(
    expect.arrayContaining([
      '/ops/api/session/signIn',
      '/ops/api/enrol/complete',
      '/ops/api/session/passkeyOptions',
      '/ops/api/session/passkeySignIn',
    ]),
  );
});

it.each([
  [
    'a text/plain form from a store page',
    { 'content-type': 'text/plain', origin: 'http://aurora.localhost:3000', 'sec-fetch-site': 'same-site' },
  ],
  ['a url-encoded form with no Origin', { 'content-type': 'application/x-www-form-urlencoded' }],
])('refuses a sign-in posted as %s with 400, and sets no cookie', async (_name, headers) => {
  const answer = await signIn(headers);
  expect(answer.body).toMatchObject({ code: 400, message: 'content-type: must be application/json for a console sign-in call' });
  expect(answer.headers['set-cookie']).toBeUndefined();
});

it.each([
  ['a store page (same-site)', { origin: 'http://aurora.localhost:3000', 'sec-fetch-site': 'same-site' }],
  ['a store page, Origin only', { origin: 'http://aurora.localhost:3000' }],
  ['another site', { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' }],
  ['an opaque origin', { origin: 'null' }],
])('refuses a JSON sign-in from %s with 403, and sets no cookie', async (_name, headers) => {
  const answer = await signIn(headers);
  expect(answer.body).toMatchObject({ code: 403, message: expect.stringMatching(/^origin: .*cannot sign in to the console/) });
  expect(answer.headers['set-cookie']).toBeUndefined();
});

it.each(guestPaths)('refuses %s posted as text/plain from another site before reading it', async (path) => {
  const answer = await apiCall(
    db,
    path,
    {},
    {
      host: OPS_HOST,
      now: when,
      headers: { 'content-type': 'text/plain', origin: 'https://evil.example' },
    },
  );
  expect(answer.body.code).toBe(400);
  expect(answer.message).toMatch(/^content-type: /);
  expect(answer.headers['set-cookie']).toBeUndefined();
});

it('signs in from the console’s own page with JSON, setting the cookie (the refused tries above spent nothing)', async () => {
  const answer = await signIn(CONSOLE_PAGE);
  expect(answer).toMatchObject({ code: 200, data: { name: 'csrf.owner', role: 'owner' } });
  expect(answer.headers['set-cookie']).toMatch(/^__Host-ops=/);
});
