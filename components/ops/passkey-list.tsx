'use client';

import { useRouter } from 'next/navigation';
import { useState, type FormEvent } from 'react';
import { consoleCall } from './console-call';
import { ConsoleError, ConsoleField } from './field';

export type PasskeyWords = Record<
  | 'none'
  | 'name'
  | 'created'
  | 'lastUsed'
  | 'never'
  | 'actions'
  | 'newName'
  | 'newNameHint'
  | 'newNameDefault'
  | 'add'
  | 'adding'
  | 'added'
  | 'rename'
  | 'save'
  | 'cancel'
  | 'remove'
  | 'removeYes'
  | 'keep'
  | 'lastFactor'
  | 'unsupported'
  | 'cancelled',
  string
>;

type Row = { id: number; name: string; created: string; lastUsed: string | null };

/** Why the browser's WebAuthn call failed, in the operator's words (a refusal of ours comes back as a message instead). */
export function webauthnFailure(error: unknown, words: { unsupported: string; cancelled: string }): string {
  const name = error instanceof Error ? error.name : '';
  return name === 'NotSupportedError' || typeof window.PublicKeyCredential === 'undefined' ? words.unsupported : words.cancelled;
}

const small =
  'rounded-md border border-gray-300 bg-white px-2.5 py-1 text-sm font-medium text-gray-800 hover:bg-gray-50 disabled:opacity-60';
const danger = 'rounded-md bg-red-700 px-2.5 py-1 text-sm font-semibold text-white hover:bg-red-800 disabled:opacity-60';

/**
 * The operator's passkeys on the Account page (issue 31): the list with rename and remove, and "Add a passkey", which
 * asks the browser to make one for the operator host (navigator.credentials.create through @simplewebauthn/browser,
 * loaded on first use) and sends its answer back to be verified and kept. The last second factor cannot be removed.
 */
export function PasskeyList({
  locale,
  words,
  passkeys,
  removeConfirm,
  lastFactor,
}: {
  locale: string;
  words: PasskeyWords;
  passkeys: Row[];
  removeConfirm: Record<number, string>;
  lastFactor: boolean;
}) {
  const router = useRouter();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [renaming, setRenaming] = useState<number | null>(null);
  const [removing, setRemoving] = useState<number | null>(null);

  async function add(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const name = String(new FormData(event.currentTarget).get('passkey-name') ?? '').trim() || words.newNameDefault;
    setBusy(true);
    setError(null);
    setNotice(null);
    const started = await consoleCall('/ops/api/passkey/registerOptions', {}, locale);
    if (!started.ok) {
      setBusy(false);
      setError(started.message);
      return;
    }
    let response;
    try {
      const { startRegistration } = await import('@simplewebauthn/browser');
      // The server's options as generateRegistrationOptions made them (typed loosely on the way through the API).
      response = await startRegistration({ optionsJSON: started.data.options as never });
    } catch (failure) {
      setBusy(false);
      setError(webauthnFailure(failure, words));
      return;
    }
    const added = await consoleCall('/ops/api/passkey/add', { ceremony: started.data.ceremony, name, response }, locale);
    setBusy(false);
    if (!added.ok) {
      setError(added.message);
      return;
    }
    setNotice(words.added);
    (event.target as HTMLFormElement).reset();
    router.refresh();
  }

  async function rename(event: FormEvent<HTMLFormElement>, id: number) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    const answer = await consoleCall(
      '/ops/api/passkey/rename',
      { id, name: String(new FormData(event.currentTarget).get('name') ?? '') },
      locale,
    );
    setBusy(false);
    if (!answer.ok) {
      setError(answer.message);
      return;
    }
    setRenaming(null);
    router.refresh();
  }

  async function remove(id: number) {
    setBusy(true);
    setError(null);
    const answer = await consoleCall('/ops/api/passkey/remove', { id }, locale);
    setBusy(false);
    setRemoving(null);
    if (!answer.ok) {
      setError(answer.message);
      return;
    }
    router.refresh();
  }

  return (
    <div className="space-y-5">
      {passkeys.length === 0 ? (
        <p className="rounded-md border border-dashed border-gray-300 p-4 text-center text-sm text-gray-600">{words.none}</p>
      ) : (
        <div className="overflow-x-auto rounded-md border border-gray-200">
          <table className="min-w-full divide-y divide-gray-200 text-left text-sm">
            <thead className="bg-gray-50 text-xs font-semibold tracking-wide text-gray-600 uppercase">
              <tr>
                <th scope="col" className="px-4 py-2.5">
                  {words.name}
                </th>
                <th scope="col" className="px-4 py-2.5">
                  {words.created}
                </th>
                <th scope="col" className="px-4 py-2.5">
                  {words.lastUsed}
                </th>
                <th scope="col" className="px-4 py-2.5">
                  <span className="sr-only">{words.actions}</span>
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-gray-100">
              {passkeys.map((p) => (
                <tr key={p.id} data-passkey={p.name}>
                  <td className="px-4 py-3 font-medium text-gray-900">
                    {renaming === p.id ? (
                      <form onSubmit={(e) => rename(e, p.id)} className="flex flex-wrap items-center gap-2" noValidate>
                        <label htmlFor={`rename-${p.id}`} className="sr-only">
                          {words.name}
                        </label>
                        <input
                          id={`rename-${p.id}`}
                          name="name"
                          defaultValue={p.name}
                          maxLength={64}
                          autoFocus
                          className="w-48 rounded-md border border-gray-300 px-2 py-1 text-sm focus:border-blue-600 focus:ring-2 focus:ring-blue-600/30 focus:outline-none"
                        />
                        <button type="submit" disabled={busy} className={small}>
                          {words.save}
                        </button>
                        <button type="button" onClick={() => setRenaming(null)} className={small}>
                          {words.cancel}
                        </button>
                      </form>
                    ) : (
                      p.name
                    )}
                  </td>
                  <td className="px-4 py-3 whitespace-nowrap text-gray-700">{p.created}</td>
                  <td className="px-4 py-3 whitespace-nowrap text-gray-700">{p.lastUsed ?? words.never}</td>
                  <td className="px-4 py-3 text-right">
                    {removing === p.id ? (
                      <div className="flex flex-wrap items-center justify-end gap-2" role="group" aria-label={removeConfirm[p.id]}>
                        <span className="text-sm text-gray-800">{removeConfirm[p.id]}</span>
                        <button type="button" disabled={busy} onClick={() => remove(p.id)} className={danger}>
                          {words.removeYes}
                        </button>
                        <button type="button" onClick={() => setRemoving(null)} className={small}>
                          {words.keep}
                        </button>
                      </div>
                    ) : (
                      <div className="flex items-center justify-end gap-2 whitespace-nowrap">
                        <button
                          type="button"
                          onClick={() => {
                            setRemoving(null);
                            setRenaming(p.id);
                          }}
                          className={small}
                          aria-label={`${words.rename}: ${p.name}`}
                        >
                          {words.rename}
                        </button>
                        {lastFactor ? (
                          <span className="text-xs text-gray-600">{words.lastFactor}</span>
                        ) : (
                          <button
                            type="button"
                            onClick={() => {
                              setRenaming(null);
                              setRemoving(p.id);
                            }}
                            className={small}
                            aria-label={`${words.remove}: ${p.name}`}
                          >
                            {words.remove}
                          </button>
                        )}
                      </div>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <form onSubmit={add} className="flex flex-wrap items-end gap-3" noValidate>
        <div className="min-w-64 flex-1">
          <ConsoleField
            id="passkey-name"
            name="passkey-name"
            label={words.newName}
            hint={words.newNameHint}
            placeholder={words.newNameDefault}
            maxLength={64}
            autoComplete="off"
          />
        </div>
        <button
          type="submit"
          disabled={busy}
          className="mb-7 inline-flex items-center justify-center rounded-md bg-blue-700 px-4 py-2.5 text-base font-semibold text-white hover:bg-blue-800 disabled:opacity-60"
        >
          {busy ? words.adding : words.add}
        </button>
      </form>
      {notice ? (
        <p role="status" className="text-sm text-green-800">
          {notice}
        </p>
      ) : null}
      <ConsoleError message={error} />
    </div>
  );
}
