'use client';

import { useRouter } from 'next/navigation';
import { useState, type FormEvent } from 'react';
import { consoleCall } from './console-call';
import { ConsoleError, ConsoleField } from './field';

export type AlertWebhookFormat = 'json' | 'wecom' | 'dingtalk' | 'feishu';

export type AlertWebhookWords = {
  title: string;
  intro: string;
  none: string;
  /** The current webhook in words (the server page writes it: URL masked, format named). */
  current: string | null;
  signedText: string | null;
  deployment: string | null;
  url: string;
  urlHint: string;
  urlKeep: string;
  format: string;
  formats: Record<AlertWebhookFormat, string>;
  secret: string;
  secretHint: string;
  secretKeep: string;
  secretNone: string;
  save: string;
  saving: string;
  saved: string;
  test: string;
  testing: string;
  /** "The receiver took it (HTTP {status})." — `{status}` filled in here. */
  testTaken: string;
  testRefused: string;
  /** "It said: {said}" — `{said}` filled in here. */
  testSaid: string;
  remove: string;
  confirmRemove: string;
  confirm: string;
  cancel: string;
  failed: string;
};

const SELECT =
  'block w-full rounded-md border border-gray-300 bg-white px-3 py-2 text-base text-gray-900 shadow-sm focus:border-blue-600 focus:ring-2 focus:ring-blue-600/30 focus:outline-none';
const BUTTON =
  'rounded-md border border-gray-300 bg-white px-3 py-2 text-sm font-medium text-gray-900 hover:bg-gray-50 disabled:opacity-60';

type FieldErrors = Partial<Record<'url' | 'format' | 'secret' | 'form', string>>;

/**
 * The Reports tab's alert webhook section (issue 32, "Reports": alerts go "to a webhook the owner sets"), for owners:
 * set or change the store's webhook (URL, format, signing secret), send a test alert and read what the receiver said,
 * remove it. A refusal shows under the field it names; after a write the page's data is read again (router.refresh).
 * The secret is write-only: the page never has it.
 */
export function AlertWebhookPanel({
  locale,
  channel,
  format: currentFormat,
  isSet,
  words,
}: {
  locale: string;
  channel: string;
  format: AlertWebhookFormat | null;
  isSet: boolean;
  words: AlertWebhookWords;
}) {
  const router = useRouter();
  const [format, setFormat] = useState<AlertWebhookFormat>(currentFormat ?? 'dingtalk');
  const [busy, setBusy] = useState<'save' | 'test' | 'remove' | null>(null);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [saved, setSaved] = useState(false);
  const [test, setTest] = useState<{ taken: boolean; status: number | null; said: string } | null>(null);
  const [confirming, setConfirming] = useState(false);
  const signs = format !== 'wecom';

  async function save(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const url = String(form.get('url') ?? '').trim();
    const secret = String(form.get('secret') ?? '').trim();
    setBusy('save');
    setErrors({});
    setSaved(false);
    setTest(null);
    const answer = await consoleCall(
      '/ops/api/alert/webhook/set',
      { channel, format, ...(url ? { url } : {}), ...(signs && secret ? { secret } : {}) },
      locale,
    );
    setBusy(null);
    if (!answer.ok) {
      const field = answer.field === 'url' || answer.field === 'format' || answer.field === 'secret' ? answer.field : 'form';
      const message = field === 'form' ? answer.message : answer.message.replace(new RegExp(`^${field}: `), '');
      setErrors({ [field]: message || words.failed });
      return;
    }
    (event.target as HTMLFormElement).reset();
    setSaved(true);
    router.refresh();
  }

  async function sendTest() {
    setBusy('test');
    setErrors({});
    setTest(null);
    const answer = await consoleCall('/ops/api/alert/webhook/test', { channel }, locale);
    setBusy(null);
    if (answer.ok) setTest(answer.data);
    else setErrors({ form: answer.message || words.failed });
  }

  async function remove() {
    setBusy('remove');
    setErrors({});
    const answer = await consoleCall('/ops/api/alert/webhook/remove', { channel }, locale);
    setBusy(null);
    setConfirming(false);
    setTest(null);
    if (!answer.ok) setErrors({ form: answer.message || words.failed });
    router.refresh();
  }

  return (
    <section className="mt-3 space-y-4 rounded-lg border border-gray-200 bg-white p-4" data-testid="alert-webhook">
      <p className="max-w-3xl text-sm text-gray-700">{words.intro}</p>
      <p className="text-sm font-medium text-gray-900" data-testid="alert-webhook-current">
        {words.current ?? words.none} {words.signedText ?? ''}
      </p>
      {words.deployment ? <p className="text-sm text-gray-600">{words.deployment}</p> : null}

      <form onSubmit={save} className="grid max-w-3xl gap-4 md:grid-cols-2" noValidate>
        <div className="md:col-span-2">
          <ConsoleField
            id="alert-webhook-url"
            name="url"
            type="url"
            inputMode="url"
            autoComplete="off"
            spellCheck={false}
            label={words.url}
            hint={isSet ? `${words.urlHint} ${words.urlKeep}` : words.urlHint}
            placeholder="https://oapi.dingtalk.com/robot/send?access_token=…"
            aria-invalid={errors.url ? true : undefined}
          />
          {errors.url ? <p className="mt-1 text-sm text-red-700">{errors.url}</p> : null}
        </div>
        <div className="space-y-1">
          <label htmlFor="alert-webhook-format" className="block text-sm font-medium text-gray-800">
            {words.format}
          </label>
          <select
            id="alert-webhook-format"
            name="format"
            value={format}
            onChange={(e) => setFormat(e.target.value as AlertWebhookFormat)}
            className={SELECT}
            aria-invalid={errors.format ? true : undefined}
          >
            {(Object.keys(words.formats) as AlertWebhookFormat[]).map((f) => (
              <option key={f} value={f}>
                {words.formats[f]}
              </option>
            ))}
          </select>
          {errors.format ? <p className="text-sm text-red-700">{errors.format}</p> : null}
        </div>
        <div>
          {signs ? (
            <ConsoleField
              id="alert-webhook-secret"
              name="secret"
              type="password"
              autoComplete="new-password"
              spellCheck={false}
              label={words.secret}
              hint={isSet ? `${words.secretHint} ${words.secretKeep}` : words.secretHint}
              aria-invalid={errors.secret ? true : undefined}
            />
          ) : (
            <p className="pt-7 text-sm text-gray-600">{words.secretNone}</p>
          )}
          {errors.secret ? <p className="mt-1 text-sm text-red-700">{errors.secret}</p> : null}
        </div>
        <div className="flex flex-wrap items-center gap-3 md:col-span-2">
          <button
            type="submit"
            disabled={busy !== null}
            className="rounded-md bg-blue-700 px-4 py-2 text-sm font-semibold text-white hover:bg-blue-800 disabled:opacity-60"
          >
            {busy === 'save' ? words.saving : words.save}
          </button>
          {isSet ? (
            <button type="button" className={BUTTON} disabled={busy !== null} onClick={sendTest}>
              {busy === 'test' ? words.testing : words.test}
            </button>
          ) : null}
          {isSet && !confirming ? (
            <button type="button" className={`${BUTTON} text-red-800`} disabled={busy !== null} onClick={() => setConfirming(true)}>
              {words.remove}
            </button>
          ) : null}
          {saved ? (
            <span role="status" className="text-sm text-green-800">
              {words.saved}
            </span>
          ) : null}
        </div>
      </form>

      {confirming ? (
        <div role="alertdialog" className="flex flex-wrap items-center gap-3 rounded-md border border-red-200 bg-red-50 px-4 py-3 text-sm">
          <span className="text-red-900">{words.confirmRemove}</span>
          <button
            type="button"
            className="rounded-md bg-red-700 px-3 py-1.5 font-semibold text-white hover:bg-red-800"
            disabled={busy !== null}
            onClick={remove}
          >
            {words.confirm}
          </button>
          <button type="button" className={BUTTON} onClick={() => setConfirming(false)}>
            {words.cancel}
          </button>
        </div>
      ) : null}

      {test ? (
        <div
          role="status"
          data-testid="alert-webhook-test"
          className={`rounded-md px-4 py-3 text-sm ${test.taken ? 'bg-green-50 text-green-900' : 'bg-amber-50 text-amber-900'}`}
        >
          <p className="font-medium">{test.taken ? words.testTaken.replace('{status}', String(test.status)) : words.testRefused}</p>
          {test.said ? <p className="mt-1 font-mono text-xs break-all">{words.testSaid.replace('{said}', test.said)}</p> : null}
        </div>
      ) : null}
      <ConsoleError message={errors.form ?? null} />
    </section>
  );
}
