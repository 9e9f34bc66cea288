'use client';

import { useRouter } from 'next/navigation';
import { useState, type FormEvent } from 'react';
import { consoleCall } from './console-call';
import { ConsoleButton, ConsoleError, ConsoleField } from './field';
import { webauthnFailure } from './passkey-list';

export type SignInWords = {
  name: string;
  password: string;
  code: string;
  codeHint: string;
  submit: string;
  working: string;
  failed: string;
  usePasskey: string;
  usingPasskey: string;
  passkeyHint: string;
  unsupported: string;
  cancelled: string;
};

/**
 * The console's sign-in (issue 31): name, password, and a TOTP or recovery code — or, in place of the code, a passkey
 * ("Use a passkey": the server answers a challenge for this account's passkeys, the browser asks the device, the
 * server checks its answer). A passkey never stands in for the password. On success, the channel list.
 */
export function SignInForm({ words, locale }: { words: SignInWords; locale: string }) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<'code' | 'passkey' | null>(null);
  const router = useRouter();

  function signedIn() {
    router.replace('/channels');
    router.refresh();
  }

  async function withPasskey(form: HTMLFormElement) {
    const fields = new FormData(form);
    const name = String(fields.get('name') ?? '');
    const password = String(fields.get('password') ?? '');
    setError(null);
    if (!name.trim() || !password) {
      setError(words.passkeyHint);
      return;
    }
    setBusy('passkey');
    // The name alone starts it; the password goes with the passkey's answer, so the first step says nothing about it.
    const started = await consoleCall('/ops/api/session/passkeyOptions', { name }, locale);
    if (!started.ok) {
      setBusy(null);
      setError(started.message || words.failed);
      return;
    }
    let response;
    try {
      const { startAuthentication } = await import('@simplewebauthn/browser');
      // The server's options as generateAuthenticationOptions made them (typed loosely on the way through the API).
      response = await startAuthentication({ optionsJSON: started.data.options as never });
    } catch (failure) {
      setBusy(null);
      setError(webauthnFailure(failure, words));
      return;
    }
    const answer = await consoleCall(
      '/ops/api/session/passkeySignIn',
      { name, password, ceremony: started.data.ceremony, response },
      locale,
    );
    if (answer.ok) return signedIn();
    setBusy(null);
    setError(answer.message || words.failed);
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setBusy('code');
    setError(null);
    const answer = await consoleCall(
      '/ops/api/session/signIn',
      { name: String(form.get('name') ?? ''), password: String(form.get('password') ?? ''), code: String(form.get('code') ?? '') },
      locale,
    );
    if (answer.ok) return signedIn();
    setBusy(null);
    setError(answer.message || words.failed);
  }

  return (
    <form onSubmit={submit} className="space-y-4" noValidate>
      <ConsoleField id="name" name="name" label={words.name} autoComplete="username" autoCapitalize="none" spellCheck={false} required />
      <ConsoleField id="password" name="password" type="password" label={words.password} autoComplete="current-password" required />
      <ConsoleField id="code" name="code" label={words.code} hint={words.codeHint} autoComplete="one-time-code" inputMode="text" required />
      <ConsoleError message={error} />
      <ConsoleButton disabled={busy !== null}>{busy === 'code' ? words.working : words.submit}</ConsoleButton>
      <button
        type="button"
        disabled={busy !== null}
        onClick={(e) => withPasskey(e.currentTarget.form!)}
        className="inline-flex w-full items-center justify-center rounded-md border border-gray-300 bg-white px-4 py-2.5 text-base font-semibold text-gray-800 hover:bg-gray-50 disabled:opacity-60"
      >
        {busy === 'passkey' ? words.usingPasskey : words.usePasskey}
      </button>
    </form>
  );
}
