import fc from 'fast-check';
import { createTestApi, type CallOptions, type TestApi } from '@/test/api';
import { makeBuyerFixtures, SAMPLE_INPUTS, type BuyerFixtures } from '@/test/api-fixtures';
import { registry, type ApiPath } from './registry';

// Fuzzing the market API (security review, finding 8): for every procedure of the registry, random and mangled bodies,
// from a visitor and from a logged-in buyer who owns the objects the valid input names. Whatever comes in, the answer
// is a refusal with its code, never a fault: no HTTP 500, no envelope code 500. Seeded, so a failure replays.

process.env.BUY_MAX_LAG_MS = '60000';

/** Runs per procedure and caller; the seed is fixed, so CI replays the same bodies (fc.assert prints the seed on failure). */
const RUNS = 80;
const SEED = 20_261_122;

let api: TestApi;
let a: BuyerFixtures;
const faults: string[] = [];

beforeAll(async () => {
  api = await createTestApi();
  a = await makeBuyerFixtures(api);
  // The demo SMS outbox logs texts; a fault is logged by the dispatcher and collected here for the failure message.
  jest.spyOn(console, 'info').mockImplementation(() => {});
  jest.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
    faults.push(
      args
        .map((x) => (x instanceof Error ? `${x.name}: ${x.message}` : String(x)))
        .join(' ')
        .slice(0, 400),
    );
  });
});
afterAll(async () => {
  jest.restoreAllMocks();
  await api.close();
});

// Values a field may be replaced by, as JSON text (so deep nesting and lone surrogates go out exactly as written).
const deep = (depth: number, open: string, close: string, leaf = '0') => `${open.repeat(depth)}${leaf}${close.repeat(depth)}`;
const nastyText: fc.Arbitrary<string> = fc.oneof(
  fc.jsonValue().map((v) => JSON.stringify(v)),
  fc.constantFrom(
    'null',
    'true',
    '0',
    '-0',
    '-1',
    '0.5',
    '1e308',
    '-1e308',
    '1e400',
    '2147483648',
    '9007199254740993',
    '123456789012345678901234567890',
    '""',
    '" "',
    '"\\u0000"',
    '"a\\u0000b"',
    '"\\ud800"',
    '"x\\udc00y"',
    '"\\udbff\\udfff"',
    '"1e+21"',
    '"NaN"',
    '"Infinity"',
    '"-1"',
    '"0x10"',
    '"٣"',
    '[]',
    '{}',
    '[null]',
    '{"$ne": null}',
    '{"__proto__": {"isAdmin": true}}',
    '{"constructor": {"prototype": {"polluted": 1}}}',
    `"${'9'.repeat(5000)}"`,
    `"${'a'.repeat(60_000)}"`,
  ),
  fc.string({ unit: 'binary', maxLength: 80 }).map((s) => JSON.stringify(s)),
  fc.integer({ min: 100, max: 30_000 }).map((depth) => deep(depth, '[', ']')),
  fc.integer({ min: 100, max: 12_000 }).map((depth) => deep(depth, '{"a":', '}')),
);

/** The valid input with fields replaced, removed or added (among them the prototype keys), as JSON text. */
function mutationsOf(sample: Record<string, unknown>): fc.Arbitrary<string> {
  const keys = Object.keys(sample);
  const field = fc.oneof(
    ...(keys.length ? [fc.constantFrom(...keys)] : []),
    fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', ''),
    fc.string({ maxLength: 12 }),
  );
  return fc.array(fc.tuple(field, fc.option(nastyText, { nil: undefined, freq: 5 })), { minLength: 1, maxLength: 3 }).map((changes) => {
    const entries = new Map(Object.entries(sample).map(([k, v]) => [k, JSON.stringify(v)]));
    for (const [key, value] of changes) {
      if (value === undefined) entries.delete(key);
      else entries.set(key, value);
    }
    return `{${[...entries].map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(',')}}`;
  });
}

/** A request body; a failure report shows the start of it and its length, not 60 KB of brackets. */
type Body = { text: string } & fc.WithToStringMethod;
function asBody(text: string): Body {
  const shown = text.length > 300 ? `${JSON.stringify(text.slice(0, 300))}… (${text.length} characters)` : JSON.stringify(text);
  return { text, [fc.toStringMethod]: () => shown };
}

function bodies(sample: Record<string, unknown>): fc.Arbitrary<Body> {
  return fc
    .oneof(
      { weight: 5, arbitrary: mutationsOf(sample) },
      { weight: 2, arbitrary: fc.dictionary(fc.string({ maxLength: 10 }), fc.jsonValue(), { maxKeys: 6 }).map((o) => JSON.stringify(o)) },
      { weight: 1, arbitrary: fc.jsonValue().map((v) => JSON.stringify(v)) },
      {
        weight: 1,
        arbitrary: fc.anything({ withNullPrototype: true, withObjectString: true }).map((v) => JSON.stringify(v) ?? 'undefined'),
      },
      { weight: 1, arbitrary: fc.oneof(fc.string({ unit: 'binary', maxLength: 40 }), nastyText) },
    )
    .map(asBody);
}

const paths = Object.keys(registry) as ApiPath[];
const seedOf = (p: ApiPath, caller: number) => SEED + caller * 1000 + paths.indexOf(p);

/** Callers: a visitor, and buyer A (a fresh session each call: a fuzzed logout must not log the next call out). */
const callers: { name: string; options: () => Promise<CallOptions> }[] = [
  { name: 'a visitor', options: async () => ({}) },
  { name: 'a logged-in buyer', options: async () => ({ token: await api.session(a.buyer.userId, 'AURORA') }) },
];

describe.each(paths)('%s', (p) => {
  it.each(callers.map((c, i) => [c.name, i] as const))(
    'never fails with a 500 for %s',
    async (_name, index) => {
      const caller = callers[index]!;
      const sample = SAMPLE_INPUTS[p](a);
      faults.length = 0;
      await fc.assert(
        fc.asyncProperty(bodies(sample), async (body) => {
          const answer = await api.callApi(p, null, { ...(await caller.options()), rawBody: body.text });
          if (answer.status === 500 || answer.code === 500) {
            throw new Error(`HTTP ${answer.status}, code ${answer.code}: ${faults.at(-1) ?? 'no error logged'}`);
          }
        }),
        { seed: seedOf(p, index), numRuns: RUNS, endOnFailure: true },
      );
    },
    120_000,
  );
});
