import { openEmbedded, type Embedded } from './embedded';

/**
 * Transactions under load on the embedded database's one connection (lib/db/embedded.ts). postgres.js lends the
 * connection to a transaction when its BEGIN is written (`onexecute`), but skipped that step when the BEGIN was the
 * statement that filled the connection's pipeline (`max_pipeline`, 100 by default): the BEGIN ran, `sql.begin()`
 * failed with "Cannot set properties of undefined (setting 'onclose')", its first statement failed unhandled, and the
 * session stayed inside a transaction nobody would end.
 */
describe('transactions among many statements in flight on the embedded database', () => {
  let embedded: Embedded | undefined;
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);

  beforeEach(() => {
    unhandled.length = 0;
    process.on('unhandledRejection', onUnhandled);
  });
  afterEach(async () => {
    process.off('unhandledRejection', onUnhandled);
    await embedded?.close();
    embedded = undefined;
  });

  /** Two statements in a row run in transactions of their own: no transaction was left open on the session. */
  async function sessionIsClean(sql: Embedded['sql']): Promise<boolean> {
    const [first] = await sql<{ id: string }[]>`select txid_current()::text as id`;
    const [second] = await sql<{ id: string }[]>`select txid_current()::text as id`;
    return first!.id !== second!.id;
  }

  it('commits a transaction sent after any number of statements, the one filling the pipeline among them', async () => {
    embedded = openEmbedded(undefined);
    const { sql } = embedded;
    await sql`create table note (id serial primary key, body text not null)`;
    await sql`insert into note (body) values ('warm')`;

    for (const before of [0, 1, 99, 100, 101, 250]) {
      // The statements start now, in this order, ahead of the transaction (a query runs when it is executed or awaited).
      const plain = Array.from({ length: before }, () => sql`insert into note (body) values ('plain')`.execute());
      const committed = sql.begin(async (tx) => {
        const [row] = await tx<{ id: number }[]>`insert into note (body) values (${`tx after ${before}`}) returning id`;
        return row!.id;
      });
      const [answer, ...plainAnswers] = await Promise.allSettled([committed, ...plain]);
      expect({ before, answer: answer!.status, reason: answer!.status === 'rejected' ? String(answer.reason) : null }).toEqual({
        before,
        answer: 'fulfilled',
        reason: null,
      });
      expect(plainAnswers.filter((a) => a.status !== 'fulfilled')).toEqual([]);
      expect(await sessionIsClean(sql)).toBe(true);
    }

    const counts = await sql<{ body: string; n: number }[]>`
      select body, count(*)::int as n from note where body <> 'warm' group by body order by body`;
    expect(counts).toEqual([
      { body: 'plain', n: 551 },
      { body: 'tx after 0', n: 1 },
      { body: 'tx after 1', n: 1 },
      { body: 'tx after 100', n: 1 },
      { body: 'tx after 101', n: 1 },
      { body: 'tx after 250', n: 1 },
      { body: 'tx after 99', n: 1 },
    ]);
    expect(unhandled).toEqual([]);
  });

  it('rolls back a failing transaction sent as the statement filling the pipeline, and keeps the statements around it', async () => {
    embedded = openEmbedded(undefined);
    const { sql } = embedded;
    await sql`create table note (id serial primary key, body text not null)`;
    await sql`insert into note (body) values ('warm')`;

    const before = Array.from({ length: 100 }, () => sql`insert into note (body) values ('before')`.execute());
    const failed = sql.begin(async (tx) => {
      await tx`insert into note (body) values ('undone')`;
      throw new Error('the buyer left');
    });
    const after = Array.from({ length: 20 }, () => sql`insert into note (body) values ('after')`.execute());
    const answers = await Promise.allSettled([failed, ...before, ...after]);

    expect(answers[0]!.status === 'rejected' ? String(answers[0].reason) : 'committed').toBe('Error: the buyer left');
    expect(answers.slice(1).filter((a) => a.status !== 'fulfilled')).toEqual([]);
    const counts = await sql<{ body: string; n: number }[]>`
      select body, count(*)::int as n from note where body <> 'warm' group by body order by body`;
    expect(counts).toEqual([
      { body: 'after', n: 20 },
      { body: 'before', n: 100 },
    ]);
    expect(await sessionIsClean(sql)).toBe(true);
    expect(unhandled).toEqual([]);
  });
});
