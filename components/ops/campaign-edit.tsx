'use client';

import { useRouter } from 'next/navigation';
import { useState, type FormEvent } from 'react';
import { consoleCall } from './console-call';
import { ConsoleError, ConsoleField } from './field';
import { fromZoneInput, toZoneInput } from './sale-time';
import type { CampaignWords } from './campaign-panel';

/**
 * The Campaigns tab's edit forms (issue 32, "the console edits what it made"): a gift campaign or exchange activity,
 * one of its offers, a chain-up campaign. The same fields as making one; once buyers took it, what they relied on (the
 * opening time, what an offer gives and asks) is shown read-only with the reason, and sent back as it was, so the
 * service's refusal is only for an edit made meanwhile. Collectibles are picked by name from the channel's catalogue.
 */

export type Collectible = { id: number; name: string };
type Refusal = { field: string | null; message: string } | null;

const MAIN_BUTTON = 'rounded-md bg-blue-700 px-4 py-2 text-sm font-semibold text-white hover:bg-blue-800 disabled:opacity-60';
const SMALL_BUTTON =
  'rounded-md border border-gray-300 bg-white px-2.5 py-1 text-sm font-medium text-gray-800 hover:bg-gray-50 disabled:opacity-60';
const DANGER_BUTTON =
  'rounded-md border border-red-300 bg-white px-3 py-2 text-sm font-semibold text-red-800 hover:bg-red-50 disabled:opacity-60';
const INPUT =
  'block w-full rounded-md border border-gray-300 bg-white px-3 py-2 text-base text-gray-900 shadow-sm focus:border-blue-600 focus:ring-2 focus:ring-blue-600/30 focus:outline-none disabled:bg-gray-100 disabled:text-gray-600';

function FieldError({ field, error }: { field: string; error: Refusal }) {
  return error && error.field === field ? (
    <p role="alert" className="text-sm text-red-700" data-field-error={field}>
      {error.message}
    </p>
  ) : null;
}

/** The refusal under the form when it names none of the form's fields. */
function FormError({ error, fields }: { error: Refusal; fields: string[] }) {
  return <ConsoleError message={error && !fields.includes(error.field ?? '') ? error.message : null} />;
}

function Hint({ id, text }: { id: string; text: string | undefined }) {
  return text ? (
    <p id={id} className="text-sm text-amber-900" data-frozen>
      {text}
    </p>
  ) : null;
}

/** A select of the channel's collectibles by name (a catalogue of hundreds reads as a sorted list; ids stay hidden). */
export function CollectibleSelect({
  id,
  label,
  value,
  onChange,
  collectibles,
  disabled,
  hint,
  placeholder,
}: {
  id: string;
  label: string;
  value: number | null;
  onChange: (id: number | null) => void;
  collectibles: Collectible[];
  disabled?: boolean;
  hint?: string;
  placeholder?: string;
}) {
  return (
    <div className="space-y-1">
      <label htmlFor={id} className="block text-sm font-medium text-gray-800">
        {label}
      </label>
      <select
        id={id}
        className={INPUT}
        value={value ?? ''}
        disabled={disabled}
        aria-describedby={hint ? `${id}-hint` : undefined}
        onChange={(e) => onChange(e.target.value ? Number(e.target.value) : null)}
      >
        {placeholder !== undefined || value === null ? <option value="">{placeholder ?? ''}</option> : null}
        {collectibles.map((c) => (
          <option key={c.id} value={c.id}>
            {c.name}
          </option>
        ))}
      </select>
      <Hint id={`${id}-hint`} text={hint} />
    </div>
  );
}

export type RecipeLine = { commodity: number | null; quantity: number };

/** An exchange recipe as lines of a collectible picked by name and a quantity (give A × 2 + B), added and removed. */
export function RecipeEditor({
  idPrefix,
  lines,
  onChange,
  collectibles,
  disabled,
  hint,
  words,
}: {
  idPrefix: string;
  lines: RecipeLine[];
  onChange: (lines: RecipeLine[]) => void;
  collectibles: Collectible[];
  disabled?: boolean;
  hint?: string;
  words: CampaignWords;
}) {
  const set = (i: number, line: Partial<RecipeLine>) => onChange(lines.map((l, j) => (j === i ? { ...l, ...line } : l)));
  return (
    <fieldset className="space-y-2" aria-describedby={hint ? `${idPrefix}-hint` : undefined}>
      <legend className="text-sm font-medium text-gray-800">{words.inputs}</legend>
      {lines.map((line, i) => (
        <div key={i} className="flex flex-wrap items-end gap-2" data-recipe-line={i}>
          <div className="min-w-48 flex-1">
            <select
              id={`${idPrefix}-c-${i}`}
              aria-label={`${words.pickCollectible} ${i + 1}`}
              className={INPUT}
              value={line.commodity ?? ''}
              disabled={disabled}
              onChange={(e) => set(i, { commodity: e.target.value ? Number(e.target.value) : null })}
            >
              <option value="">{words.pickCollectible}</option>
              {collectibles.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.name}
                </option>
              ))}
            </select>
          </div>
          <span className="pb-2 text-gray-600" aria-hidden>
            ×
          </span>
          <div className="w-24">
            <input
              aria-label={`${words.quantity} ${i + 1}`}
              type="number"
              min={1}
              max={100}
              className={INPUT}
              value={line.quantity}
              disabled={disabled}
              onChange={(e) => set(i, { quantity: Number(e.target.value) })}
            />
          </div>
          {!disabled && lines.length > 1 ? (
            <button type="button" className={SMALL_BUTTON} onClick={() => onChange(lines.filter((_, j) => j !== i))}>
              {words.removeLine}
            </button>
          ) : null}
        </div>
      ))}
      {!disabled ? (
        <button type="button" className={SMALL_BUTTON} onClick={() => onChange([...lines, { commodity: null, quantity: 1 }])}>
          {words.addLine}
        </button>
      ) : null}
      <Hint id={`${idPrefix}-hint`} text={hint} />
    </fieldset>
  );
}

/** The recipe's lines as the call takes them (lines without a collectible are left out: nothing was picked). */
export const recipeOf = (lines: RecipeLine[]) =>
  lines.filter((l) => l.commodity !== null).map((l) => ({ commodity: l.commodity!, quantity: l.quantity }));

/** "End now", asking first: the campaign's closing time becomes this moment. */
function EndNow({ onEnd, busy, words }: { onEnd: () => void; busy: boolean; words: CampaignWords }) {
  const [asking, setAsking] = useState(false);
  return asking ? (
    <span role="group" aria-label={words.confirmEnd} className="inline-flex flex-wrap items-center gap-2">
      <span className="text-sm text-gray-800">{words.confirmEnd}</span>
      <button
        type="button"
        className={DANGER_BUTTON}
        disabled={busy}
        onClick={() => {
          setAsking(false);
          onEnd();
        }}
      >
        {words.endNow}
      </button>
      <button type="button" className={SMALL_BUTTON} onClick={() => setAsking(false)}>
        {words.cancel}
      </button>
    </span>
  ) : (
    <button type="button" className={DANGER_BUTTON} disabled={busy} onClick={() => setAsking(true)}>
      {words.endNow}
    </button>
  );
}

/** A call's answer kept as the form's state: saving, the refusal (under its field), or saved. */
function useSaving(words: CampaignWords) {
  const router = useRouter();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<Refusal>(null);
  const [saved, setSaved] = useState(false);
  async function run(call: () => Promise<{ ok: true } | { ok: false; field: string | null; message: string }>) {
    setBusy(true);
    setError(null);
    setSaved(false);
    const answer = await call();
    setBusy(false);
    if (!answer.ok) return setError({ field: answer.field, message: answer.message || words.failed! });
    setSaved(true);
    router.refresh();
  }
  return { busy, error, saved, run, setError };
}

function Saved({ saved, words }: { saved: boolean; words: CampaignWords }) {
  return (
    <p role="status" className="text-sm text-green-800">
      {saved ? words.saved : ''}
    </p>
  );
}

export type CampaignDraft = {
  id: number;
  code: string;
  name: string;
  description: string;
  startTime: string;
  endTime: string | null;
  sort: number;
  taken: number;
  ended: boolean;
};

/** A gift campaign's or exchange activity's edit, with "End now" while it has not ended. */
export function CampaignEditForm({
  locale,
  channel,
  timeZone,
  campaign,
  words,
}: {
  locale: string;
  channel: string;
  timeZone: string;
  campaign: CampaignDraft;
  words: CampaignWords;
}) {
  const { busy, error, saved, run } = useSaving(words);
  const frozen = campaign.taken > 0;
  const [form, setForm] = useState({
    code: campaign.code,
    name: campaign.name,
    description: campaign.description,
    start: toZoneInput(campaign.startTime, timeZone),
    end: toZoneInput(campaign.endTime, timeZone),
    sort: String(campaign.sort),
  });
  const set = (key: keyof typeof form) => (e: { target: { value: string } }) => setForm((f) => ({ ...f, [key]: e.target.value }));

  async function save(event: FormEvent) {
    event.preventDefault();
    await run(() =>
      consoleCall(
        '/ops/api/campaign/update',
        {
          channel,
          campaignId: campaign.id,
          code: form.code,
          name: form.name,
          description: form.description,
          // Frozen: sent as it was to the second (the input shows minutes), so an unchanged field is no change.
          startTime: frozen ? campaign.startTime : (fromZoneInput(form.start, timeZone) ?? form.start),
          endTime: form.end.trim() ? (fromZoneInput(form.end, timeZone) ?? form.end) : null,
          sort: Number(form.sort),
        },
        locale,
      ),
    );
  }

  const fields = ['code', 'name', 'description', 'startTime', 'endTime', 'sort'];
  return (
    <form onSubmit={save} noValidate className="space-y-3 rounded-lg border border-gray-200 bg-white p-4" aria-label={words.editCampaign}>
      <h2 className="text-lg font-semibold text-gray-900">{words.editCampaign}</h2>
      <div className="grid gap-3 md:grid-cols-2">
        <div>
          <ConsoleField id="edit-code" label={words.code!} value={form.code} onChange={set('code')} maxLength={64} />
          <FieldError field="code" error={error} />
        </div>
        <div>
          <ConsoleField id="edit-name" label={words.name!} value={form.name} onChange={set('name')} maxLength={100} />
          <FieldError field="name" error={error} />
        </div>
        <div>
          <ConsoleField
            id="edit-start"
            type="datetime-local"
            label={words.opens!}
            value={form.start}
            onChange={set('start')}
            disabled={frozen}
            hint={frozen ? words.frozenStart : undefined}
          />
          <FieldError field="startTime" error={error} />
        </div>
        <div>
          <ConsoleField id="edit-end" type="datetime-local" label={words.closes!} value={form.end} onChange={set('end')} />
          <FieldError field="endTime" error={error} />
        </div>
        <div className="md:col-span-2">
          <label htmlFor="edit-description" className="block text-sm font-medium text-gray-800">
            {words.description}
          </label>
          <textarea
            id="edit-description"
            rows={2}
            className={INPUT}
            value={form.description}
            onChange={set('description')}
            maxLength={2000}
          />
          <FieldError field="description" error={error} />
        </div>
        <div>
          <ConsoleField id="edit-sort" type="number" min={0} label={words.sort!} value={form.sort} onChange={set('sort')} />
          <FieldError field="sort" error={error} />
        </div>
      </div>
      <FormError error={error} fields={fields} />
      <div className="flex flex-wrap items-center gap-3">
        <button type="submit" className={MAIN_BUTTON} disabled={busy}>
          {busy ? words.saving : words.save}
        </button>
        {campaign.ended ? (
          <span className="text-sm font-medium text-gray-700">{words.ended}</span>
        ) : (
          <EndNow
            busy={busy}
            words={words}
            onEnd={() => run(() => consoleCall('/ops/api/campaign/end', { channel, campaignId: campaign.id }, locale))}
          />
        )}
        <Saved saved={saved} words={words} />
      </div>
    </form>
  );
}

export type OfferDraft = {
  id: number;
  kind: 'holders' | 'code' | 'welcome' | 'recipe';
  commodityId: number;
  total: number;
  taken: number;
  limitPerUser: number;
  requiresCommodityId: number | null;
  inputs: { commodityId: number; quantity: number }[];
  sort: number;
};

/** One offer's edit: count, limit and order always; what it gives and asks until a buyer first takes it. */
export function OfferEditForm({
  locale,
  channel,
  offer,
  collectibles,
  words,
}: {
  locale: string;
  channel: string;
  offer: OfferDraft;
  collectibles: Collectible[];
  words: CampaignWords;
}) {
  const { busy, error, saved, run } = useSaving(words);
  const frozen = offer.taken > 0;
  const exchange = offer.kind === 'recipe';
  const [commodity, setCommodity] = useState<number | null>(offer.commodityId);
  const [asks, setAsks] = useState<'nothing' | 'code' | 'holding'>(
    offer.kind === 'code' ? 'code' : offer.kind === 'holders' ? 'holding' : 'nothing',
  );
  const [requires, setRequires] = useState<number | null>(offer.requiresCommodityId);
  const [lines, setLines] = useState<RecipeLine[]>(offer.inputs.map((i) => ({ commodity: i.commodityId, quantity: i.quantity })));
  const [total, setTotal] = useState(String(offer.total));
  const [limit, setLimit] = useState(String(offer.limitPerUser));
  const id = `offer-${offer.id}`;

  async function save(event: FormEvent) {
    event.preventDefault();
    const terms = frozen
      ? {}
      : exchange
        ? { commodity: commodity ?? undefined, inputs: recipeOf(lines) }
        : { commodity: commodity ?? undefined, requiresCode: asks === 'code', requires: asks === 'holding' ? requires : null };
    await run(() =>
      consoleCall(
        '/ops/api/campaign/offer/update',
        { channel, offerId: offer.id, total: Number(total), limitPerUser: Number(limit), sort: offer.sort, ...terms },
        locale,
      ),
    );
  }

  const hint = frozen ? words.frozenTerms : undefined;
  return (
    <form onSubmit={save} noValidate className="space-y-3 border-t border-gray-100 pt-3" aria-label={`${words.editOffer} #${offer.id}`}>
      <div className="grid gap-3 md:grid-cols-2">
        <div>
          <CollectibleSelect
            id={`${id}-commodity`}
            label={words.commodity!}
            value={commodity}
            onChange={setCommodity}
            collectibles={collectibles}
            disabled={frozen}
          />
          <FieldError field="commodity" error={error} />
        </div>
        <div className="grid grid-cols-2 gap-3">
          <div>
            <ConsoleField
              id={`${id}-total`}
              type="number"
              min={offer.taken}
              label={words.total!}
              value={total}
              onChange={(e) => setTotal(e.target.value)}
            />
            <FieldError field="total" error={error} />
          </div>
          <div>
            <ConsoleField
              id={`${id}-limit`}
              type="number"
              min={1}
              label={words.limit!}
              value={limit}
              onChange={(e) => setLimit(e.target.value)}
            />
            <FieldError field="limitPerUser" error={error} />
          </div>
        </div>
      </div>
      {exchange ? (
        <div>
          <RecipeEditor
            idPrefix={`${id}-recipe`}
            lines={lines}
            onChange={setLines}
            collectibles={collectibles}
            disabled={frozen}
            words={words}
          />
          <FieldError field="inputs" error={error} />
        </div>
      ) : (
        <fieldset className="space-y-2" disabled={frozen}>
          <legend className="text-sm font-medium text-gray-800">{words.asks}</legend>
          <div className="flex flex-wrap gap-x-4 gap-y-1">
            {(['nothing', 'code', 'holding'] as const).map((a) => (
              <label key={a} className="inline-flex items-center gap-1 text-sm">
                <input type="radio" name={`${id}-asks`} value={a} checked={asks === a} onChange={() => setAsks(a)} />
                {words[a === 'nothing' ? 'asksNothing' : a === 'code' ? 'asksCode' : 'asksHolding']}
              </label>
            ))}
          </div>
          <FieldError field="requiresCode" error={error} />
          {asks === 'holding' ? (
            <div>
              <CollectibleSelect
                id={`${id}-requires`}
                label={words.requires!}
                value={requires}
                onChange={setRequires}
                collectibles={collectibles}
                disabled={frozen}
                placeholder={words.pickCollectible}
              />
              <FieldError field="requires" error={error} />
            </div>
          ) : null}
        </fieldset>
      )}
      <Hint id={`${id}-hint`} text={hint} />
      <FormError error={error} fields={['commodity', 'total', 'limitPerUser', 'inputs', 'requires', 'requiresCode']} />
      <div className="flex flex-wrap items-center gap-3">
        <button type="submit" className={MAIN_BUTTON} disabled={busy}>
          {busy ? words.saving : words.save}
        </button>
        <Saved saved={saved} words={words} />
      </div>
    </form>
  );
}

export type ChainDraft = {
  id: number;
  name: string;
  description: string;
  commodityId: number;
  authorStageName: string;
  startTime: string;
  endTime: string | null;
  sort: number;
  used: number;
  ended: boolean;
};

/** A chain-up campaign's edit, with "End now". Its collectible and opening are fixed once a code was chained up. */
export function ChainEditForm({
  locale,
  channel,
  timeZone,
  chain,
  collectibles,
  words,
}: {
  locale: string;
  channel: string;
  timeZone: string;
  chain: ChainDraft;
  collectibles: Collectible[];
  words: CampaignWords;
}) {
  const { busy, error, saved, run } = useSaving(words);
  const frozen = chain.used > 0;
  const [form, setForm] = useState({
    name: chain.name,
    description: chain.description,
    author: chain.authorStageName,
    start: toZoneInput(chain.startTime, timeZone),
    end: toZoneInput(chain.endTime, timeZone),
    sort: String(chain.sort),
  });
  const [commodity, setCommodity] = useState<number | null>(chain.commodityId);
  const set = (key: keyof typeof form) => (e: { target: { value: string } }) => setForm((f) => ({ ...f, [key]: e.target.value }));
  const id = `chain-${chain.id}`;

  async function save(event: FormEvent) {
    event.preventDefault();
    await run(() =>
      consoleCall(
        '/ops/api/campaign/chain/update',
        {
          channel,
          campaignId: chain.id,
          name: form.name,
          description: form.description,
          commodity: frozen ? chain.commodityId : (commodity ?? 0),
          authorStageName: form.author,
          startTime: frozen ? chain.startTime : (fromZoneInput(form.start, timeZone) ?? form.start),
          endTime: form.end.trim() ? (fromZoneInput(form.end, timeZone) ?? form.end) : null,
          sort: Number(form.sort),
        },
        locale,
      ),
    );
  }

  return (
    <form onSubmit={save} noValidate className="space-y-3 pt-3" aria-label={`${words.editChain} #${chain.id}`}>
      <div className="grid gap-3 md:grid-cols-2">
        <div>
          <ConsoleField id={`${id}-name`} label={words.name!} value={form.name} onChange={set('name')} maxLength={100} />
          <FieldError field="name" error={error} />
        </div>
        <div>
          <ConsoleField id={`${id}-author`} label={words.author!} value={form.author} onChange={set('author')} maxLength={100} />
          <FieldError field="authorStageName" error={error} />
        </div>
        <div className="md:col-span-2">
          <CollectibleSelect
            id={`${id}-commodity`}
            label={words.chainCommodity!}
            value={commodity}
            onChange={setCommodity}
            collectibles={collectibles}
            disabled={frozen}
            hint={frozen ? words.frozenChain : undefined}
          />
          <FieldError field="commodity" error={error} />
        </div>
        <div>
          <ConsoleField
            id={`${id}-start`}
            type="datetime-local"
            label={words.opens!}
            value={form.start}
            onChange={set('start')}
            disabled={frozen}
            hint={frozen ? words.frozenChain : undefined}
          />
          <FieldError field="startTime" error={error} />
        </div>
        <div>
          <ConsoleField id={`${id}-end`} type="datetime-local" label={words.closes!} value={form.end} onChange={set('end')} />
          <FieldError field="endTime" error={error} />
        </div>
        <div className="md:col-span-2">
          <label htmlFor={`${id}-description`} className="block text-sm font-medium text-gray-800">
            {words.description}
          </label>
          <textarea
            id={`${id}-description`}
            rows={2}
            className={INPUT}
            value={form.description}
            onChange={set('description')}
            maxLength={2000}
          />
        </div>
        <div>
          <ConsoleField id={`${id}-sort`} type="number" min={0} label={words.sort!} value={form.sort} onChange={set('sort')} />
        </div>
      </div>
      <FormError error={error} fields={['name', 'authorStageName', 'commodity', 'startTime', 'endTime']} />
      <div className="flex flex-wrap items-center gap-3">
        <button type="submit" className={MAIN_BUTTON} disabled={busy}>
          {busy ? words.saving : words.save}
        </button>
        {chain.ended ? (
          <span className="text-sm font-medium text-gray-700">{words.ended}</span>
        ) : (
          <EndNow
            busy={busy}
            words={words}
            onEnd={() => run(() => consoleCall('/ops/api/campaign/chain/end', { channel, campaignId: chain.id }, locale))}
          />
        )}
        <Saved saved={saved} words={words} />
      </div>
    </form>
  );
}
