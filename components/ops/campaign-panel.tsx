'use client';

import { useRouter } from 'next/navigation';
import { useState, type FormEvent } from 'react';
import { TZDate } from '@date-fns/tz';
import { consoleCall } from './console-call';
import { ConsoleError, ConsoleField } from './field';
import { RecipeEditor, recipeOf, type RecipeLine } from './campaign-edit';

/** The Campaigns tab's words (ops.campaigns.*), written by the server page. */
export type CampaignWords = Record<string, string>;

const SMALL_BUTTON =
  'rounded-md border border-gray-300 bg-white px-2.5 py-1 text-sm font-medium text-gray-800 hover:bg-gray-50 disabled:opacity-60';
const MAIN_BUTTON = 'rounded-md bg-blue-700 px-4 py-2 text-sm font-semibold text-white hover:bg-blue-800 disabled:opacity-60';
const INPUT =
  'block w-full rounded-md border border-gray-300 bg-white px-3 py-2 text-base text-gray-900 shadow-sm focus:border-blue-600 focus:ring-2 focus:ring-blue-600/30 focus:outline-none';

/** A `datetime-local` value read in the channel's time zone (issue 32: times are the channel's), as ISO with offset. */
function inZone(value: string, timeZone: string): string | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/.exec(value);
  if (!m) return null;
  const [y, mo, d, h, mi] = m.slice(1).map(Number) as [number, number, number, number, number];
  return new Date(new TZDate(y, mo - 1, d, h, mi, timeZone).getTime()).toISOString();
}

function FieldError({ field, error }: { field: string; error: { field: string | null; message: string } | null }) {
  return error && error.field === field ? (
    <p role="alert" className="text-sm text-red-700" data-field-error={field}>
      {error.message}
    </p>
  ) : null;
}

type Refusal = { field: string | null; message: string } | null;

/** The form that makes a gift campaign or an exchange activity, then opens its page. */
export function NewCampaignForm({
  locale,
  channel,
  timeZone,
  words,
}: {
  locale: string;
  channel: string;
  timeZone: string;
  words: CampaignWords;
}) {
  const router = useRouter();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<Refusal>(null);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const closes = String(form.get('endTime') ?? '');
    setBusy(true);
    setError(null);
    const answer = await consoleCall(
      '/ops/api/campaign/create',
      {
        channel,
        kind: form.get('kind') === 'exchange' ? 'exchange' : 'gift',
        code: String(form.get('code') ?? ''),
        name: String(form.get('name') ?? ''),
        startTime: inZone(String(form.get('startTime') ?? ''), timeZone) ?? '',
        endTime: closes ? (inZone(closes, timeZone) ?? closes) : null,
      },
      locale,
    );
    setBusy(false);
    if (!answer.ok) return setError({ field: answer.field, message: answer.message || words.failed! });
    router.push(`/channels/${channel}/campaigns/${answer.data.id}`);
  }

  return (
    <form onSubmit={submit} className="max-w-xl space-y-3 rounded-lg border border-gray-200 bg-white p-4" aria-label={words.newTitle}>
      <h2 className="text-lg font-semibold text-gray-900">{words.newTitle}</h2>
      <div className="space-y-1">
        <label htmlFor="campaign-kind" className="block text-sm font-medium text-gray-800">
          {words.kind}
        </label>
        <select id="campaign-kind" name="kind" className={INPUT}>
          <option value="gift">{words.kindGift}</option>
          <option value="exchange">{words.kindExchange}</option>
        </select>
      </div>
      <ConsoleField id="campaign-code" name="code" label={words.code!} required maxLength={64} />
      <FieldError field="code" error={error} />
      <ConsoleField id="campaign-name" name="name" label={words.name!} required maxLength={100} />
      <FieldError field="name" error={error} />
      <ConsoleField id="campaign-start" name="startTime" type="datetime-local" label={words.opens!} required />
      <FieldError field="startTime" error={error} />
      <ConsoleField id="campaign-end" name="endTime" type="datetime-local" label={words.closes!} />
      <FieldError field="endTime" error={error} />
      <ConsoleError message={error && !['code', 'name', 'startTime', 'endTime'].includes(error.field ?? '') ? error.message : null} />
      <button type="submit" className={MAIN_BUTTON} disabled={busy}>
        {busy ? words.saving : words.create}
      </button>
    </form>
  );
}

/** The form that adds an offer: a gift (welcome, by code, for holders) or an exchange recipe. */
export function AddOfferForm({
  locale,
  channel,
  campaignId,
  exchange,
  collectibles,
  words,
}: {
  locale: string;
  channel: string;
  campaignId: number;
  exchange: boolean;
  collectibles: { id: number; name: string }[];
  words: CampaignWords;
}) {
  const router = useRouter();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<Refusal>(null);
  const [asks, setAsks] = useState<'nothing' | 'code' | 'holding'>('nothing');
  const [lines, setLines] = useState<RecipeLine[]>([{ commodity: null, quantity: 1 }]);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const formElement = event.currentTarget;
    const form = new FormData(formElement);
    const inputs = recipeOf(lines);
    setBusy(true);
    setError(null);
    const answer = await consoleCall(
      '/ops/api/campaign/offer/create',
      {
        channel,
        campaignId,
        commodity: Number(form.get('commodity')),
        total: Number(form.get('total')),
        limitPerUser: Number(form.get('limitPerUser') || 1),
        requiresCode: exchange ? false : asks === 'code',
        requires: !exchange && asks === 'holding' ? Number(form.get('requires')) : null,
        inputs: exchange ? inputs : [],
      },
      locale,
    );
    setBusy(false);
    if (!answer.ok) return setError({ field: answer.field, message: answer.message || words.failed! });
    formElement.reset();
    setLines([{ commodity: null, quantity: 1 }]);
    router.refresh();
  }

  const options = collectibles.map((c) => (
    <option key={c.id} value={c.id}>
      {c.name}
    </option>
  ));
  return (
    <form onSubmit={submit} className="max-w-xl space-y-3 rounded-lg border border-gray-200 bg-white p-4" aria-label={words.addOffer}>
      <h2 className="text-lg font-semibold text-gray-900">{words.addOffer}</h2>
      <div className="space-y-1">
        <label htmlFor="offer-commodity" className="block text-sm font-medium text-gray-800">
          {words.commodity}
        </label>
        <select id="offer-commodity" name="commodity" className={INPUT}>
          {options}
        </select>
        <FieldError field="commodity" error={error} />
      </div>
      <ConsoleField id="offer-total" name="total" type="number" min={1} label={words.total!} required />
      <FieldError field="total" error={error} />
      <ConsoleField id="offer-limit" name="limitPerUser" type="number" min={1} defaultValue={1} label={words.limit!} />
      {exchange ? (
        <div className="space-y-1">
          <RecipeEditor idPrefix="offer-inputs" lines={lines} onChange={setLines} collectibles={collectibles} words={words} />
          <FieldError field="inputs" error={error} />
        </div>
      ) : (
        <fieldset className="space-y-1">
          <legend className="text-sm font-medium text-gray-800">{words.asks}</legend>
          {(['nothing', 'code', 'holding'] as const).map((a) => (
            <label key={a} className="mr-4 inline-flex items-center gap-1 text-sm">
              <input type="radio" name="asks" value={a} checked={asks === a} onChange={() => setAsks(a)} />
              {words[a === 'nothing' ? 'asksNothing' : a === 'code' ? 'asksCode' : 'asksHolding']}
            </label>
          ))}
          {asks === 'holding' ? (
            <div className="space-y-1">
              <label htmlFor="offer-requires" className="block text-sm font-medium text-gray-800">
                {words.requires}
              </label>
              <select id="offer-requires" name="requires" className={INPUT}>
                {options}
              </select>
              <FieldError field="requires" error={error} />
            </div>
          ) : null}
        </fieldset>
      )}
      <ConsoleError message={error && !['commodity', 'total', 'inputs', 'requires'].includes(error.field ?? '') ? error.message : null} />
      <button type="submit" className={MAIN_BUTTON} disabled={busy}>
        {busy ? words.saving : words.add}
      </button>
    </form>
  );
}

/** A batch as the page shows it, its times already written by the server. */
export type BatchRow = {
  id: number;
  size: number;
  source: 'generated' | 'imported';
  expires: string | null;
  used: number;
  exportable: boolean;
  exported: string | null;
  revoked: string | null;
};

/** An offer's code batches: generate, import, export once, revoke a batch or a code, and who used them. */
export function BatchPanel({
  locale,
  channel,
  offerId,
  timeZone,
  batches,
  canWrite,
  words,
}: {
  locale: string;
  channel: string;
  offerId: number;
  timeZone: string;
  batches: BatchRow[];
  canWrite: boolean;
  words: CampaignWords;
}) {
  const router = useRouter();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<Refusal>(null);
  const [confirming, setConfirming] = useState<number | null>(null);
  const [usage, setUsage] = useState<{ batchId: number; rows: { id: number; usedAt: string | null; usedBy: string | null }[] } | null>(
    null,
  );
  const when = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short', timeZone });

  async function run<T>(call: () => Promise<{ ok: true; data: T } | { ok: false; field: string | null; message: string }>) {
    setBusy(true);
    setError(null);
    const answer = await call();
    setBusy(false);
    if (!answer.ok) {
      setError({ field: answer.field, message: answer.message || words.failed! });
      return null;
    }
    router.refresh();
    return answer.data;
  }

  async function generate(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const expires = String(form.get('expiresAt') ?? '');
    await run(() =>
      consoleCall(
        '/ops/api/campaign/batch/generate',
        { channel, offerId, size: Number(form.get('size')), expiresAt: expires ? inZone(expires, timeZone) : null },
        locale,
      ),
    );
  }

  async function importCodes(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const codes = String(form.get('codes') ?? '')
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean);
    await run(() => consoleCall('/ops/api/campaign/batch/import', { channel, offerId, codes }, locale));
  }

  async function exportOnce(batchId: number) {
    const data = await run(() => consoleCall('/ops/api/campaign/batch/export', { channel, batchId }, locale));
    if (!data) return;
    // The file is made in the browser from the one answer that carries the codes; nothing keeps them after.
    const url = URL.createObjectURL(new Blob([data.csv], { type: 'text/csv' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = data.filename;
    a.click();
    URL.revokeObjectURL(url);
  }

  async function revokeOne(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    await run(() => consoleCall('/ops/api/campaign/code/revoke', { channel, offerId, code: String(form.get('code') ?? '') }, locale));
  }

  async function showUsage(batchId: number) {
    const answer = await consoleCall('/ops/api/campaign/batch/usage', { channel, batchId }, locale);
    if (answer.ok) setUsage({ batchId, rows: answer.data.used });
    else setError({ field: answer.field, message: answer.message || words.failed! });
  }

  const state = (b: BatchRow) => (b.revoked ? words.revoked : b.exportable ? words.exportable : b.exported ? words.exported : words.active);
  return (
    <section className="space-y-3" aria-label={words.batches}>
      <h3 className="text-sm font-semibold text-gray-800">{words.batches}</h3>
      <div className="overflow-x-auto rounded-lg border border-gray-200 bg-white">
        <table className="min-w-full divide-y divide-gray-200 text-left text-sm">
          <thead className="bg-gray-50 text-xs font-semibold tracking-wide text-gray-600 uppercase">
            <tr>
              {[words.batch, words.size, words.source, words.expires, words.used, words.state, ''].map((h, i) => (
                <th key={i} scope="col" className="px-3 py-2">
                  {h}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-gray-100">
            {batches.map((b) => (
              <tr key={b.id} data-batch={b.id}>
                <td className="px-3 py-2 font-mono">#{b.id}</td>
                <td className="px-3 py-2">{b.size}</td>
                <td className="px-3 py-2">{b.source === 'generated' ? words.generated : words.imported}</td>
                <td className="px-3 py-2">{b.expires ?? '—'}</td>
                <td className="px-3 py-2">{b.used}</td>
                <td className="px-3 py-2">{state(b)}</td>
                <td className="space-x-2 px-3 py-2 whitespace-nowrap">
                  {canWrite && b.exportable ? (
                    <button
                      type="button"
                      className={SMALL_BUTTON}
                      disabled={busy}
                      onClick={() => exportOnce(b.id)}
                      title={words.exportNote}
                    >
                      {words.export}
                    </button>
                  ) : null}
                  <button type="button" className={SMALL_BUTTON} onClick={() => showUsage(b.id)}>
                    {words.usage}
                  </button>
                  {canWrite && !b.revoked ? (
                    confirming === b.id ? (
                      <span role="group" aria-label={words.confirmRevoke}>
                        <span className="text-xs text-gray-700">{words.confirmRevoke}</span>{' '}
                        <button
                          type="button"
                          className={SMALL_BUTTON}
                          disabled={busy}
                          onClick={async () => {
                            setConfirming(null);
                            await run(() => consoleCall('/ops/api/campaign/batch/revoke', { channel, batchId: b.id }, locale));
                          }}
                        >
                          {words.confirm}
                        </button>{' '}
                        <button type="button" className={SMALL_BUTTON} onClick={() => setConfirming(null)}>
                          {words.cancel}
                        </button>
                      </span>
                    ) : (
                      <button type="button" className={SMALL_BUTTON} onClick={() => setConfirming(b.id)}>
                        {words.revoke}
                      </button>
                    )
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {usage ? (
        <div className="rounded-md border border-gray-200 bg-white p-3 text-sm" aria-label={words.usage}>
          <p className="font-semibold">
            {words.usage} · #{usage.batchId}
          </p>
          {usage.rows.length === 0 ? (
            <p className="text-gray-600">{words.noUsage}</p>
          ) : (
            <ul className="mt-1 space-y-1">
              {usage.rows.map((r) => (
                <li key={r.id} data-used-by={r.usedBy ?? ''}>
                  {r.usedAt ? when.format(new Date(r.usedAt)) : '—'} · {r.usedBy}
                </li>
              ))}
            </ul>
          )}
        </div>
      ) : null}
      <ConsoleError message={error?.message ?? null} />
      {canWrite ? (
        <div className="grid gap-4 md:grid-cols-3">
          <form onSubmit={generate} className="space-y-2" aria-label={words.generate}>
            <ConsoleField id={`size-${offerId}`} name="size" type="number" min={1} max={10000} label={words.generateSize!} required />
            <ConsoleField id={`expires-${offerId}`} name="expiresAt" type="datetime-local" label={words.expiresAt!} />
            <button type="submit" className={MAIN_BUTTON} disabled={busy}>
              {words.generate}
            </button>
          </form>
          <form onSubmit={importCodes} className="space-y-2" aria-label={words.import}>
            <label htmlFor={`codes-${offerId}`} className="block text-sm font-medium text-gray-800">
              {words.importCodes}
            </label>
            <textarea id={`codes-${offerId}`} name="codes" rows={3} className={INPUT} />
            <button type="submit" className={MAIN_BUTTON} disabled={busy}>
              {words.import}
            </button>
          </form>
          <form onSubmit={revokeOne} className="space-y-2" aria-label={words.revokeCode}>
            <ConsoleField id={`revoke-${offerId}`} name="code" label={words.revokeCodeLabel!} required />
            <button type="submit" className={MAIN_BUTTON} disabled={busy}>
              {words.revokeCode}
            </button>
          </form>
        </div>
      ) : null}
    </section>
  );
}
