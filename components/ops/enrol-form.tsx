'use client';

import Link from 'next/link';
import { useState, type FormEvent, type ReactNode } from 'react';
import { consoleCall } from './console-call';
import { ConsoleButton, ConsoleError, ConsoleField } from './field';

export type EnrolWords = {
  password: string;
  passwordHint: string;
  passwordAgain: string;
  mismatch: string;
  code: string;
  submit: string;
  working: string;
  doneTitle: string;
  recoveryIntro: string;
  toSignIn: string;
  failed: string;
};

/**
 * Completes an enrolment (issue 31): a password twice and the code the authenticator app shows for the secret above.
 * Then the recovery codes, once: they are not kept anywhere but in the operator's hands.
 */
export function EnrolForm({ token, words, locale, scan }: { token: string; words: EnrolWords; locale: string; scan: ReactNode }) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const password = String(form.get('password') ?? '');
    if (password !== String(form.get('passwordAgain') ?? '')) {
      setError(words.mismatch);
      return;
    }
    setBusy(true);
    setError(null);
    const answer = await consoleCall('/ops/api/enrol/complete', { token, password, code: String(form.get('code') ?? '') }, locale);
    setBusy(false);
    if (answer.ok) setRecoveryCodes(answer.data.recoveryCodes);
    else setError(answer.message || words.failed);
  }

  if (recoveryCodes) {
    return (
      <section aria-labelledby="done-title" className="space-y-4">
        <h2 id="done-title" className="text-xl font-semibold text-gray-900">
          {words.doneTitle}
        </h2>
        <p className="text-gray-700">{words.recoveryIntro}</p>
        <ol
          aria-label="recovery codes"
          className="grid gap-x-8 gap-y-2 rounded-md border border-gray-200 bg-gray-50 p-4 font-mono text-base text-gray-900 sm:grid-cols-2"
        >
          {recoveryCodes.map((code) => (
            <li key={code} className="whitespace-nowrap">
              {code}
            </li>
          ))}
        </ol>
        <Link
          href="/sign-in"
          className="inline-flex w-full items-center justify-center rounded-md bg-blue-700 px-4 py-2.5 font-semibold text-white hover:bg-blue-800"
        >
          {words.toSignIn}
        </Link>
      </section>
    );
  }

  return (
    <div className="grid gap-8 md:grid-cols-2">
      {scan}
      <form onSubmit={submit} className="space-y-4" noValidate>
        <ConsoleField
          id="password"
          name="password"
          type="password"
          label={words.password}
          hint={words.passwordHint}
          autoComplete="new-password"
          minLength={12}
          required
        />
        <ConsoleField
          id="passwordAgain"
          name="passwordAgain"
          type="password"
          label={words.passwordAgain}
          autoComplete="new-password"
          required
        />
        <ConsoleField id="code" name="code" label={words.code} autoComplete="one-time-code" inputMode="numeric" maxLength={6} required />
        <ConsoleError message={error} />
        <ConsoleButton disabled={busy}>{busy ? words.working : words.submit}</ConsoleButton>
      </form>
    </div>
  );
}
