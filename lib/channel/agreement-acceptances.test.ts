import { eq } from 'drizzle-orm';
import { seededTestDb } from '@/test/db';
import { apiCall } from '@/test/api';
import { solvePow, type PowChallenge } from '@/lib/client/proof-of-work';
import { invalidate, tags } from '@/lib/cache/store';
import { agreementAcceptances, channels, users } from '@/lib/db/schema';
import { accountNumberOf } from '@/lib/auth/account-numbers';
import { buyerByAccountNumber } from '@/lib/buyer/service';
import { agreementAcceptancesOf } from './agreement-acceptances';
import { channelAgreements } from './agreement-facts';
import { agreementVersion } from './agreements';

// Which version of the privacy policy and the sales terms each buyer accepted, and when (issue 33): logging in is
// accepting both (the login form's checkbox), and each login keeps the versions of the texts the buyer read.

let clock = new Date('2026-11-22T08:00:00Z').getTime();
const tick = (ms = 1000) => new Date((clock += ms));
const db = seededTestDb(new Date(clock));

beforeAll(() => {
  // The demo outbox logs every text.
  jest.spyOn(console, 'info').mockImplementation(() => {});
});

async function call(path: string, body: unknown, headers: Record<string, string> = {}, now = tick()) {
  return apiCall(db, path, body, { headers, now });
}

/** Logs the phone in on AURORA through the API, reading the store in `locale`; answers the buyer and the login's time. */
async function login(phone: string, locale: string): Promise<{ userId: number; at: Date }> {
  tick(5 * 60_000); // past the phone's code cooldown
  const challenge = await call('/auth/api/captcha/challenge', { kind: 'text' });
  const { id, question, pow } = challenge.body.data as { id: string; question: { a: number; b: number }; pow: PowChallenge };
  const verified = await call('/auth/api/captcha/verify', { id, pow: await solvePow(pow), answer: question.a + question.b });
  const ticket = (verified.body.data as { ticket: string }).ticket;
  const sent = await call('/auth/api/auth/getAuthCode', { phone }, { behaviorVerify: ticket });
  const code = (sent.body.data as { demoCode: string }).demoCode;
  const at = tick();
  const res = await call('/auth/api/auth/authCodeLoginV2', { phone, code }, { 'accept-language': locale }, at);
  expect(res.body.code).toBe(200);
  const [user] = await db.select({ id: users.id }).from(users).where(eq(users.phone, phone));
  return { userId: user!.id, at };
}

async function aurora() {
  const [row] = await db.select().from(channels).where(eq(channels.key, 'AURORA'));
  return row!;
}

/** The versions the agreement pages show now, in `locale`. */
async function shownVersions(locale: 'en' | 'zh-CN') {
  const texts = channelAgreements(await aurora(), locale);
  return { privacy: agreementVersion(texts.privacyText), salesStrategy: agreementVersion(texts.salesStrategyText) };
}

it('keeps both versions the buyer read at login, once; an edited text is a new version, the old one kept', async () => {
  const { userId, at: first } = await login('13700137001', 'en');
  const en = await shownVersions('en');
  expect(en.privacy).toMatch(/^[0-9a-f]{12}$/);
  expect(await agreementAcceptancesOf(db, userId, (await aurora()).id)).toEqual([
    { agreement: 'privacy', version: en.privacy, acceptedAt: first },
    { agreement: 'salesStrategy', version: en.salesStrategy, acceptedAt: first },
  ]);

  // The same texts again: nothing added, the first acceptance's time stays.
  await login('13700137001', 'en');
  expect(await db.select().from(agreementAcceptances).where(eq(agreementAcceptances.userId, userId))).toHaveLength(2);

  // The operator rewrites the privacy policy: the next login accepts its new version; the sales terms are unchanged.
  await db.update(channels).set({ privacyText: 'Our own privacy policy, version two.' }).where(eq(channels.key, 'AURORA'));
  invalidate(db, [tags.channel('AURORA')]);
  const { at: edited } = await login('13700137001', 'en');
  const rows = await agreementAcceptancesOf(db, userId, (await aurora()).id);
  expect(rows).toHaveLength(3);
  expect(rows[2]).toEqual({ agreement: 'privacy', version: agreementVersion('Our own privacy policy, version two.'), acceptedAt: edited });
  expect(rows[2]!.version).not.toBe(en.privacy);
});

it('keeps the version of the language the buyer read the store in', async () => {
  const { userId } = await login('13700137002', 'zh-CN');
  const zh = await shownVersions('zh-CN');
  const en = await shownVersions('en');
  expect(zh.salesStrategy).not.toBe(en.salesStrategy);
  const rows = await agreementAcceptancesOf(db, userId, (await aurora()).id);
  expect(rows.find((r) => r.agreement === 'salesStrategy')?.version).toBe(zh.salesStrategy);
});

it("lists the versions on the console's buyer page, this channel's only", async () => {
  const { userId } = await login('13700137003', 'en');
  const channelId = (await aurora()).id;
  const accountNumber = await accountNumberOf(db, channelId, userId);
  const view = await buyerByAccountNumber(db, channelId, accountNumber, { fullPhone: false });
  const en = await shownVersions('en');
  expect(view!.agreements.map((a) => [a.agreement, a.version])).toEqual([
    ['privacy', en.privacy],
    ['salesStrategy', en.salesStrategy],
  ]);
  const [lumen] = await db.select({ id: channels.id }).from(channels).where(eq(channels.key, 'LUMEN'));
  expect(await agreementAcceptancesOf(db, userId, lumen!.id)).toEqual([]);
});
