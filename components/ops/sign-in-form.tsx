'use client';

import { useRouter } from 'next/navigation';
import { useState, type FormEvent } from 'react';
import { consoleCall } from './console-call';
import { ConsoleButton, ConsoleError, ConsoleField } from './field';

export type SignInWords = {
  name: string;
  password: string;
  code: string;
  codeHint: string;
  submit: string;
  working: string;
  failed: string;
};

/** The console's sign-in (issue 31): name, password, and a TOTP or recovery code; on success, the channel list. */
export function SignInForm({ words, locale }: { words: SignInWords; locale: string }) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const router = useRouter();

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setBusy(true);
    setError(null);
    const answer = await consoleCall(
      '/ops/api/session/signIn',
      { name: String(form.get('name') ?? ''), password: String(form.get('password') ?? ''), code: String(form.get('code') ?? '') },
      locale,
    );
    if (answer.ok) {
      router.replace('/channels');
      router.refresh();
      return;
    }
    setBusy(false);
    setError(answer.message || words.failed);
  }

  return (
    <form onSubmit={submit} className="space-y-4" noValidate>
      <ConsoleField id="name" name="name" label={words.name} autoComplete="username" autoCapitalize="none" spellCheck={false} required />
      <ConsoleField id="password" name="password" type="password" label={words.password} autoComplete="current-password" required />
      <ConsoleField id="code" name="code" label={words.code} hint={words.codeHint} autoComplete="one-time-code" inputMode="text" required />
      <ConsoleError message={error} />
      <ConsoleButton disabled={busy}>{busy ? words.working : words.submit}</ConsoleButton>
    </form>
  );
}
