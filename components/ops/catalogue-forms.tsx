'use client';

import { useRouter } from 'next/navigation';
import { useState, type ChangeEvent, type FormEvent } from 'react';
import { formatCount } from '@/lib/format/count';
import { consoleCall } from './console-call';
import { ConsoleError, ConsoleField, FieldError } from './field';

/** The catalogue forms' words, written by the server page (lib/i18n `ops.catalogue.*`). */
export type CatalogueWords = Record<string, string>;

/** A collectible as its form edits it (the wire's fields). */
export type CollectibleDraft = {
  code: string;
  name: string;
  description: string;
  authorName: string;
  authorCover: string;
  publisherName: string;
  seriesName: string;
  cover: string;
  gallery: string[];
  amountSku: number;
  chainName: string;
  chainContract: string;
  contractAddress: string;
  isBlindBox: boolean;
};

const BUTTON = 'rounded-md bg-blue-700 px-4 py-2 text-sm font-semibold text-white hover:bg-blue-800 disabled:opacity-60';
const SMALL =
  'rounded-md border border-gray-300 bg-white px-2.5 py-1 text-sm font-medium text-gray-800 hover:bg-gray-50 disabled:opacity-60';

/** Uploads one picture for the catalogue (lib/server/catalogue-upload.ts); answers its URL or the refusal's words. */
async function upload(channel: string, field: string, file: File, locale: string): Promise<{ url: string } | { error: string }> {
  const body = new FormData();
  body.set('file', file);
  try {
    const res = await fetch(`/api/ops/api/catalogue/upload?${new URLSearchParams({ channel, field })}`, {
      method: 'POST',
      body,
      credentials: 'same-origin',
      headers: { 'x-console-upload': '1', 'accept-language': locale },
    });
    const answer = (await res.json()) as { code: number; message: string; data: { url?: string } | null };
    return answer.code === 200 && answer.data?.url ? { url: answer.data.url } : { error: answer.message };
  } catch {
    return { error: '' };
  }
}

/**
 * A collectible's form (issue 32, "Catalogue"): new (`editing` null) or an edit of the one named. Pictures are uploaded
 * as they are chosen and named by their URL; nothing changes until the form is saved. A refusal shows under the field it
 * names.
 */
export function CollectibleForm({
  locale,
  channel,
  editing,
  initial,
  canWrite,
  words,
}: {
  locale: string;
  channel: string;
  editing: string | null;
  initial: CollectibleDraft;
  canWrite: boolean;
  words: CatalogueWords;
}) {
  const router = useRouter();
  const [draft, setDraft] = useState(initial);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const set = <K extends keyof CollectibleDraft>(key: K, value: CollectibleDraft[K]) => setDraft((d) => ({ ...d, [key]: value }));
  const text = (
    key: 'code' | 'name' | 'authorName' | 'publisherName' | 'seriesName' | 'chainName' | 'chainContract' | 'contractAddress',
  ) => (
    <div>
      <ConsoleField
        id={`collectible-${key}`}
        name={key}
        label={words[key]!}
        hint={key === 'code' ? words.codeHint : undefined}
        value={draft[key]}
        disabled={!canWrite}
        onChange={(e) => set(key, e.target.value)}
      />
      <FieldError id={`collectible-${key}-error`} message={errors[key]} />
    </div>
  );

  async function choose(field: 'cover' | 'gallery' | 'authorCover', event: ChangeEvent<HTMLInputElement>) {
    const files = [...(event.target.files ?? [])];
    event.target.value = '';
    for (const file of files) {
      setBusy(field);
      const answer = await upload(channel, field, file, locale);
      setBusy(null);
      if ('error' in answer) {
        setErrors((e) => ({ ...e, [field]: answer.error || words.failed! }));
        return;
      }
      setErrors((e) => ({ ...e, [field]: '' }));
      if (field === 'gallery') setDraft((d) => ({ ...d, gallery: [...d.gallery, answer.url] }));
      else set(field, answer.url);
    }
  }

  async function save(event: FormEvent) {
    event.preventDefault();
    setBusy('save');
    setNotice(null);
    const fields = { ...draft, channel, seriesName: draft.seriesName.trim() || null, amountSku: Number(draft.amountSku) };
    const answer = editing
      ? await consoleCall('/ops/api/catalogue/edit', { ...fields, collectible: editing }, locale)
      : await consoleCall('/ops/api/catalogue/create', fields, locale);
    setBusy(null);
    if (answer.ok) {
      setErrors({});
      setNotice(words.saved!);
      if (!editing || answer.data.code !== editing) router.push(`/channels/${channel}/catalogue/${answer.data.code}`);
      else router.refresh();
      return;
    }
    setErrors({ [answer.field ?? 'form']: answer.message || words.failed! });
  }

  const picture = (url: string, remove: () => void) => (
    <li key={url} className="flex items-center gap-2">
      {/* eslint-disable-next-line @next/next/no-img-element -- an uploaded picture on the media host, already re-encoded */}
      <img src={url} alt="" className="h-16 w-16 rounded border border-gray-200 object-contain" />
      {canWrite && (
        <button type="button" className={SMALL} onClick={remove}>
          {words.removePicture}
        </button>
      )}
    </li>
  );
  const uploader = (field: 'cover' | 'gallery' | 'authorCover') =>
    canWrite && (
      <label className={`${SMALL} inline-block cursor-pointer`}>
        {busy === field ? words.uploading : words.upload}
        <input
          type="file"
          accept="image/png,image/jpeg,image/webp,image/gif"
          multiple={field === 'gallery'}
          className="sr-only"
          data-testid={`upload-${field}`}
          onChange={(e) => void choose(field, e)}
        />
      </label>
    );

  return (
    <form onSubmit={save} className="max-w-2xl space-y-4" noValidate>
      <div className="grid gap-4 sm:grid-cols-2">
        {text('code')}
        {text('name')}
        {text('authorName')}
        {text('publisherName')}
        {text('seriesName')}
        <div>
          <ConsoleField
            id="collectible-amountSku"
            name="amountSku"
            type="number"
            min={1}
            label={words.amountSku!}
            hint={words.amountSkuHint}
            value={String(draft.amountSku)}
            disabled={!canWrite}
            onChange={(e) => set('amountSku', Number(e.target.value))}
          />
          <FieldError id="collectible-amountSku-error" message={errors.amountSku} />
        </div>
        {text('chainName')}
        {text('chainContract')}
        {text('contractAddress')}
      </div>
      <div className="space-y-1">
        <label htmlFor="collectible-description" className="block text-sm font-medium text-gray-800">
          {words.description}
        </label>
        <textarea
          id="collectible-description"
          value={draft.description}
          disabled={!canWrite}
          rows={4}
          onChange={(e) => set('description', e.target.value)}
          className="block w-full rounded-md border border-gray-300 px-3 py-2 text-base text-gray-900"
        />
        <FieldError id="collectible-description-error" message={errors.description} />
      </div>
      <label className="flex items-center gap-2 text-sm text-gray-800">
        <input type="checkbox" checked={draft.isBlindBox} disabled={!canWrite} onChange={(e) => set('isBlindBox', e.target.checked)} />
        {words.isBlindBox}
      </label>
      {(['cover', 'authorCover'] as const).map((field) => (
        <fieldset key={field} className="space-y-2">
          <legend className="text-sm font-medium text-gray-800">{words[field]}</legend>
          <ul data-testid={`pictures-${field}`}>{draft[field] ? picture(draft[field], () => set(field, '')) : null}</ul>
          {uploader(field)}
          <FieldError id={`collectible-${field}-error`} message={errors[field]} />
        </fieldset>
      ))}
      <fieldset className="space-y-2">
        <legend className="text-sm font-medium text-gray-800">{words.gallery}</legend>
        <ul className="flex flex-wrap gap-3" data-testid="pictures-gallery">
          {draft.gallery.map((url) =>
            picture(url, () =>
              set(
                'gallery',
                draft.gallery.filter((g) => g !== url),
              ),
            ),
          )}
        </ul>
        {uploader('gallery')}
        <FieldError id="collectible-gallery-error" message={errors.gallery} />
      </fieldset>
      <ConsoleError message={errors.form ?? null} />
      {notice && (
        <p role="status" className="text-sm text-green-800">
          {notice}
        </p>
      )}
      {canWrite && (
        <button type="submit" className={BUTTON} disabled={busy !== null}>
          {busy === 'save' ? words.saving : editing ? words.save : words.create}
        </button>
      )}
    </form>
  );
}

/** A prize as the editor holds it: which collectible (its code), odds in basis points, value in yuan as typed. */
type PrizeDraft = { collectible: string; weight: string; value: string };

/**
 * A blind box's prizes (issue 32, "Blind boxes"): each another collectible of the store, its odds in basis points (the
 * total shown as it is typed) and its value in yuan; saved as a whole, refused unless the odds add up to exactly 10000.
 */
export function PrizeEditor({
  locale,
  channel,
  box,
  choices,
  initial,
  canWrite,
  words,
}: {
  locale: string;
  channel: string;
  box: string;
  choices: { code: string; name: string }[];
  initial: { collectible: string; weight: number; value: number }[];
  canWrite: boolean;
  words: CatalogueWords;
}) {
  const router = useRouter();
  const [rows, setRows] = useState<PrizeDraft[]>(
    initial.map((p) => ({ collectible: p.collectible, weight: String(p.weight), value: (p.value / 100).toFixed(2) })),
  );
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const total = rows.reduce((sum, r) => sum + (Number(r.weight) || 0), 0);
  const update = (i: number, change: Partial<PrizeDraft>) => setRows((all) => all.map((r, j) => (j === i ? { ...r, ...change } : r)));

  async function save(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setNotice(null);
    const prizes = rows.map((r) => ({ collectible: r.collectible, weight: Number(r.weight), value: Math.round(Number(r.value) * 100) }));
    const answer = await consoleCall('/ops/api/catalogue/setPrizes', { channel, box, prizes }, locale);
    setBusy(false);
    if (answer.ok) {
      setError(null);
      setNotice(words.saved!);
      router.refresh();
      return;
    }
    setError(answer.message || words.failed!);
  }

  return (
    <form onSubmit={save} className="max-w-2xl space-y-3" noValidate data-testid="prize-editor">
      <p className="text-sm text-gray-600">{words.prizesIntro}</p>
      <table className="w-full text-sm">
        <thead>
          <tr className="text-left text-gray-600">
            <th className="py-1">{words.prize}</th>
            <th className="py-1">{words.weight}</th>
            <th className="py-1">{words.value}</th>
            <th className="py-1">{words.percent}</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {rows.map((row, i) => (
            <tr key={i}>
              <td className="py-1 pr-2">
                <select
                  aria-label={`${words.prize} ${i + 1}`}
                  value={row.collectible}
                  disabled={!canWrite}
                  onChange={(e) => update(i, { collectible: e.target.value })}
                  className="w-full rounded-md border border-gray-300 px-2 py-1"
                >
                  <option value="">{words.choose}</option>
                  {choices.map((c) => (
                    <option key={c.code} value={c.code}>
                      {c.name}
                    </option>
                  ))}
                </select>
              </td>
              <td className="py-1 pr-2">
                <input
                  aria-label={`${words.weight} ${i + 1}`}
                  inputMode="numeric"
                  value={row.weight}
                  disabled={!canWrite}
                  onChange={(e) => update(i, { weight: e.target.value })}
                  className="w-28 rounded-md border border-gray-300 px-2 py-1"
                />
              </td>
              <td className="py-1 pr-2">
                <input
                  aria-label={`${words.value} ${i + 1}`}
                  inputMode="decimal"
                  value={row.value}
                  disabled={!canWrite}
                  onChange={(e) => update(i, { value: e.target.value })}
                  className="w-28 rounded-md border border-gray-300 px-2 py-1"
                />
              </td>
              <td className="py-1 pr-2 tabular-nums">{`${Number((((Number(row.weight) || 0) / 10000) * 100).toFixed(2))}%`}</td>
              <td className="py-1">
                {canWrite && (
                  <button type="button" className={SMALL} onClick={() => setRows((all) => all.filter((_, j) => j !== i))}>
                    {words.removePrize}
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className={`text-sm ${total === 10000 ? 'text-gray-700' : 'text-red-700'}`} data-testid="prize-total">
        {words
          .total!.replace('{total, number}', formatCount(total, locale))
          .replace('{percent}', `${Number(((total / 10000) * 100).toFixed(2))}%`)}
      </p>
      <p id="prizes-error" role="alert" className="min-h-6 text-sm text-red-700" data-field="prizes">
        {error ?? ''}
      </p>
      {notice && (
        <p role="status" className="text-sm text-green-800">
          {notice}
        </p>
      )}
      {canWrite && (
        <div className="flex gap-2">
          <button
            type="button"
            className={SMALL}
            onClick={() => setRows((all) => [...all, { collectible: '', weight: '', value: '0.00' }])}
          >
            {words.addPrize}
          </button>
          <button type="submit" className={BUTTON} disabled={busy}>
            {busy ? words.saving : words.savePrizes}
          </button>
        </div>
      )}
    </form>
  );
}
