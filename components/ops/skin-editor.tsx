'use client';

import { useCallback, useEffect, useMemo, useRef, useState, type ChangeEvent } from 'react';
import { hexRgb } from '@/lib/channel/contrast';
import { CSS_COLOR, SKIN_COLOR_FIELDS, skinCssVariables, type SkinColorField } from '@/lib/channel/skin-colours';
import { consoleCall } from './console-call';
import { contrastWarnings } from './skin-contrast';
import { SKIN_UPLOAD_FIELDS, type SkinUploadField } from './skin-fields';
import { PREVIEW_READY, PREVIEW_SKIN } from './skin-preview-live';

type UploadField = SkinUploadField;
type Field = SkinColorField | UploadField;

export type SkinEditorWords = {
  colours: string;
  images: string;
  readOnly: string;
  colour: Record<SkinColorField, string>;
  picker: string;
  badColour: string;
  image: Record<UploadField, string>;
  imageHint: Record<UploadField, string>;
  notSet: string;
  upload: string;
  uploading: string;
  uploadFailed: string;
  tooLarge: string;
  contrastLow: string;
  contrastVariant: string;
  contrastAsIs: string;
  white: string;
  preview: string;
  previewFrame: string;
  view: { home: string; goods: string };
  noGoods: string;
  publish: string;
  publishing: string;
  discard: string;
  /** The line for each number of unpublished changes, by that number. */
  unpublished: string[];
  published: string;
  failed: string;
};

type Draft = Record<Field, string | null>;

/** Fills `{name}` slots of a catalogue text already rendered with its slots kept (the skin page does that). */
function fill(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (slot, name: string) => (name in values ? String(values[name]) : slot));
}

/** The colour picker's value: the field's colour as #rrggbb, or null when it is not a hex colour (rgba(), a name). */
function pickerValue(colour: string): string | null {
  const rgb = hexRgb(colour);
  return rgb ? `#${rgb.map((v) => v.toString(16).padStart(2, '0')).join('')}` : null;
}

const validColour = (value: string) => CSS_COLOR.test(value.trim());

/** What the upload route answers (app/api/ops/api/skin/upload/route.ts). */
type UploadAnswer = { code: number; message: string; data: { url?: string; field?: string } | null };

/**
 * The skin editor (issue 31, "Channels"): every colour with a picker and its text, the brand images uploaded through
 * the media storage, the contrast helper's warnings beside the fields, and a phone-sized preview of the store with
 * the draft; publishing sends the changed fields in one write, discarding returns to the published skin.
 */
export function SkinEditor({
  channel,
  published: initial,
  canWrite,
  locale,
  words,
  maxUploadBytes,
  hasGoods,
}: {
  channel: { key: string; name: string };
  published: Draft;
  canWrite: boolean;
  locale: string;
  words: SkinEditorWords;
  maxUploadBytes: number;
  hasGoods: boolean;
}) {
  const [published, setPublished] = useState<Draft>(initial);
  const [draft, setDraft] = useState<Draft>(initial);
  const [errors, setErrors] = useState<Partial<Record<Field | 'form', string>>>({});
  const [uploading, setUploading] = useState<UploadField | null>(null);
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const [view, setView] = useState<'home' | 'goods'>('home');
  const frame = useRef<HTMLIFrameElement>(null);

  const changed = useMemo(
    () => (Object.keys(draft) as Field[]).filter((f) => draft[f] !== published[f] && draft[f] !== null),
    [draft, published],
  );

  /** The draft's colours that are colours (a field being typed keeps its last good value in the preview). */
  const colours = useMemo(() => {
    const skin = {} as Record<SkinColorField, string>;
    for (const f of SKIN_COLOR_FIELDS) {
      const value = (draft[f] ?? '').trim();
      skin[f] = validColour(value) ? value : (published[f] ?? '');
    }
    return skin;
  }, [draft, published]);

  const sendColours = useCallback(() => {
    const vars = skinCssVariables(colours);
    frame.current?.contentWindow?.postMessage({ type: PREVIEW_SKIN, vars }, window.location.origin);
  }, [colours]);

  // Colour edits show in the frame at once; a frame that (re)loads asks for them when it is ready.
  useEffect(() => sendColours(), [sendColours]);
  useEffect(() => {
    function onMessage(event: MessageEvent) {
      if (event.origin !== window.location.origin || event.source !== frame.current?.contentWindow) return;
      if ((event.data as { type?: unknown })?.type === PREVIEW_READY) sendColours();
    }
    window.addEventListener('message', onMessage);
    return () => window.removeEventListener('message', onMessage);
  }, [sendColours]);

  // Images change the page itself: the frame reloads with the draft's images in its address.
  const previewSrc = useMemo(() => {
    const query = new URLSearchParams({ view });
    for (const f of SKIN_UPLOAD_FIELDS) if (draft[f] && draft[f] !== published[f]) query.set(f, draft[f]!);
    return `/channels/${channel.key}/preview?${query}`;
  }, [view, draft, published, channel.key]);

  const warnings = useMemo(() => contrastWarnings(colours), [colours]);

  function setColour(field: SkinColorField, value: string) {
    setNotice(null);
    setDraft((d) => ({ ...d, [field]: value }));
    setErrors((e) => ({ ...e, [field]: validColour(value.trim()) ? undefined : words.badColour }));
  }

  async function upload(field: UploadField, event: ChangeEvent<HTMLInputElement>) {
    const input = event.currentTarget;
    const file = input.files?.[0];
    if (!file) return;
    setNotice(null);
    setErrors((e) => ({ ...e, [field]: undefined }));
    // The server stops reading past the limit; saying so here spares the operator the wait of sending it.
    if (file.size > maxUploadBytes) {
      setErrors((e) => ({ ...e, [field]: words.tooLarge }));
      input.value = '';
      return;
    }
    setUploading(field);
    const body = new FormData();
    body.set('file', file);
    let answer: UploadAnswer | null = null;
    try {
      const res = await fetch(`/api/ops/api/skin/upload?${new URLSearchParams({ channel: channel.key, field })}`, {
        method: 'POST',
        body,
        credentials: 'same-origin',
        headers: { 'x-console-upload': '1', 'accept-language': locale },
      });
      answer = (await res.json()) as UploadAnswer;
    } catch {
      answer = null;
    }
    setUploading(null);
    input.value = '';
    if (answer?.code === 200 && answer.data?.url) {
      setDraft((d) => ({ ...d, [field]: answer.data!.url! }));
    } else {
      setErrors((e) => ({ ...e, [field]: answer?.message || words.uploadFailed }));
    }
  }

  async function publish() {
    const skin = Object.fromEntries(changed.map((f) => [f, draft[f]!.trim()]));
    setBusy(true);
    setNotice(null);
    const answer = await consoleCall('/ops/api/skin/publish', { channel: channel.key, skin }, locale);
    setBusy(false);
    if (answer.ok) {
      const now = answer.data.skin as Draft;
      setPublished(now);
      setDraft(now);
      setErrors({});
      setNotice(words.published);
      return;
    }
    // A refusal names its fields: "skin.color1: why; skin.brandImg: why".
    const next: Partial<Record<Field | 'form', string>> = {};
    for (const part of answer.message.split('; ')) {
      const named = /^skin\.(\w+): (.*)$/.exec(part);
      if (named && named[1]! in draft) next[named[1] as Field] = named[2]!;
      else next.form = answer.message || words.failed;
    }
    setErrors(next);
  }

  function discard() {
    setDraft(published);
    setErrors({});
    setNotice(null);
  }

  // A colour typed wrong blocks publishing until it is a colour; a refused upload does not (the draft keeps the image
  // it had, which publishes as it is).
  const pending = changed.some((f) => errors[f] && (SKIN_COLOR_FIELDS as readonly string[]).includes(f));

  return (
    <div className="grid gap-8 md:grid-cols-[minmax(0,1fr)_300px]">
      <div className="space-y-8">
        {!canWrite ? (
          <p className="rounded-md border border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-900">{words.readOnly}</p>
        ) : null}
        <section aria-labelledby="skin-colours">
          <h2 id="skin-colours" className="mb-3 text-lg font-semibold text-gray-900">
            {words.colours}
          </h2>
          <div className="grid gap-x-6 gap-y-4 rounded-lg border border-gray-200 bg-white p-5 xl:grid-cols-2">
            {SKIN_COLOR_FIELDS.map((field) => {
              const value = draft[field] ?? '';
              const picker = pickerValue(value);
              const warning = warnings.find((w) => w.text === field);
              const error = errors[field];
              return (
                <div key={field} className="space-y-1" data-field={field}>
                  <label htmlFor={`skin-${field}`} className="block text-sm font-medium text-gray-800">
                    {words.colour[field]} <span className="font-mono text-xs font-normal text-gray-500">{field}</span>
                  </label>
                  <div className="flex items-center gap-2">
                    <input
                      type="color"
                      aria-label={fill(words.picker, { field: words.colour[field] })}
                      value={picker ?? '#000000'}
                      disabled={!canWrite || picker === null}
                      onChange={(e) => setColour(field, e.currentTarget.value)}
                      className="h-10 w-12 shrink-0 cursor-pointer rounded border border-gray-300 bg-white p-1 disabled:cursor-not-allowed"
                    />
                    <input
                      id={`skin-${field}`}
                      name={field}
                      value={value}
                      readOnly={!canWrite}
                      spellCheck={false}
                      autoCapitalize="none"
                      aria-invalid={error ? true : undefined}
                      aria-describedby={`skin-${field}-note`}
                      onChange={(e) => setColour(field, e.currentTarget.value)}
                      className="block w-full min-w-0 rounded-md border border-gray-300 bg-white px-3 py-2 font-mono text-sm text-gray-900 focus:border-blue-600 focus:ring-2 focus:ring-blue-600/30 focus:outline-none aria-invalid:border-red-600"
                    />
                  </div>
                  <div id={`skin-${field}-note`} className="space-y-1">
                    {error ? (
                      <p role="alert" className="text-sm text-red-700" data-testid={`error-${field}`}>
                        {error}
                      </p>
                    ) : null}
                    {warning ? (
                      <p className="text-sm text-amber-800" data-testid={`contrast-${field}`}>
                        {fill(words.contrastLow, {
                          text: words.colour[warning.text],
                          background: warning.background === 'white' ? words.white : words.colour[warning.background],
                          ratio: warning.ratio.toFixed(1),
                        })}{' '}
                        {warning.variant ? (
                          <>
                            {fill(words.contrastVariant, { variant: warning.variant })}{' '}
                            <span
                              aria-hidden="true"
                              data-testid={`variant-${field}`}
                              className="inline-block size-3 rounded-sm border border-gray-300 align-middle"
                              style={{ backgroundColor: warning.variant }}
                            />
                          </>
                        ) : (
                          words.contrastAsIs
                        )}
                      </p>
                    ) : null}
                  </div>
                </div>
              );
            })}
          </div>
        </section>

        <section aria-labelledby="skin-images">
          <h2 id="skin-images" className="mb-3 text-lg font-semibold text-gray-900">
            {words.images}
          </h2>
          <div className="grid gap-4 rounded-lg border border-gray-200 bg-white p-5 xl:grid-cols-2">
            {SKIN_UPLOAD_FIELDS.map((field) => {
              const src = draft[field];
              const error = errors[field];
              return (
                <div key={field} className="space-y-2" data-field={field}>
                  <p className="text-sm font-medium text-gray-800">
                    {words.image[field]} <span className="font-mono text-xs font-normal text-gray-500">{field}</span>
                  </p>
                  <div className="flex h-24 items-center justify-center overflow-hidden rounded-md border border-dashed border-gray-300 bg-gray-50">
                    {src ? (
                      // eslint-disable-next-line @next/next/no-img-element -- a draft image at its own size, from this host
                      <img src={src} alt="" className="max-h-full max-w-full object-contain" data-testid={`image-${field}`} />
                    ) : (
                      <span className="text-sm text-gray-500">{words.notSet}</span>
                    )}
                  </div>
                  <p id={`skin-${field}-hint`} className="text-xs text-gray-600">
                    {words.imageHint[field]}
                  </p>
                  {canWrite ? (
                    <label className="inline-flex cursor-pointer items-center rounded-md border border-gray-300 bg-white px-3 py-1.5 text-sm font-medium text-gray-800 focus-within:ring-2 focus-within:ring-blue-600/40 hover:bg-gray-50">
                      {uploading === field ? words.uploading : fill(words.upload, { field: words.image[field] })}
                      <input
                        type="file"
                        name={field}
                        accept="image/png,image/jpeg,image/webp,image/gif"
                        className="sr-only"
                        disabled={uploading !== null}
                        aria-describedby={`skin-${field}-hint`}
                        onChange={(e) => void upload(field, e)}
                      />
                    </label>
                  ) : null}
                  {error ? (
                    <p role="alert" className="text-sm text-red-700" data-testid={`error-${field}`}>
                      {error}
                    </p>
                  ) : null}
                </div>
              );
            })}
          </div>
        </section>

        {canWrite ? (
          <div className="sticky bottom-0 flex flex-wrap items-center gap-3 border-t border-gray-200 bg-gray-100/95 py-4">
            <button
              type="button"
              onClick={() => void publish()}
              disabled={busy || changed.length === 0 || pending || uploading !== null}
              className="rounded-md bg-blue-700 px-4 py-2.5 text-base font-semibold text-white hover:bg-blue-800 disabled:opacity-60"
            >
              {busy ? words.publishing : words.publish}
            </button>
            <button
              type="button"
              onClick={discard}
              disabled={busy || changed.length === 0}
              className="rounded-md border border-gray-300 bg-white px-4 py-2.5 text-base font-medium text-gray-800 hover:bg-gray-50 disabled:opacity-60"
            >
              {words.discard}
            </button>
            <span className="text-sm text-gray-700" data-testid="unpublished">
              {words.unpublished[changed.length] ?? words.unpublished.at(-1)}
            </span>
            <p role="status" className="w-full text-sm text-green-800">
              {notice ?? ''}
            </p>
            {errors.form ? (
              <p role="alert" className="w-full text-sm text-red-700">
                {errors.form}
              </p>
            ) : null}
          </div>
        ) : null}
      </div>

      <aside aria-labelledby="skin-preview" className="md:sticky md:top-4 md:self-start">
        <div className="mb-3 flex items-center justify-between gap-2">
          <h2 id="skin-preview" className="text-lg font-semibold text-gray-900">
            {words.preview}
          </h2>
          <div role="group" aria-label={words.preview} className="inline-flex rounded-md border border-gray-300 bg-white p-0.5">
            {(['home', 'goods'] as const).map((v) => (
              <button
                key={v}
                type="button"
                aria-pressed={view === v}
                onClick={() => setView(v)}
                className={`rounded px-2.5 py-1 text-sm font-medium ${view === v ? 'bg-blue-700 text-white' : 'text-gray-700 hover:bg-gray-100'}`}
              >
                {words.view[v]}
              </button>
            ))}
          </div>
        </div>
        {view === 'goods' && !hasGoods ? <p className="mb-2 text-sm text-gray-600">{words.noGoods}</p> : null}
        {/* A 390 × 844 phone at 70 %: the store's own pages with the draft (app/ops/[locale]/channels/[key]/preview). */}
        <div className="h-[603px] w-[285px] overflow-hidden rounded-[28px] border-[6px] border-gray-900 bg-white shadow-lg">
          <iframe
            ref={frame}
            src={previewSrc}
            title={words.previewFrame}
            data-testid="skin-preview"
            className="h-[844px] w-[390px] origin-top-left scale-[0.7] border-0"
          />
        </div>
      </aside>
    </div>
  );
}
