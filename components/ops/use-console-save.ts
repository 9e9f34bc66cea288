'use client';

import { useState } from 'react';
import { useRouter } from 'next/navigation';
import { consoleCall, type ConsolePath, type InputOf, type OutputOf } from './console-call';

/**
 * A console form's save (the sale's allocation forms: waiting room, lottery, priority purchase; issue 35): the call,
 * busy while it runs, and its answer where the operator reads it: a refusal under the field it names (the last part
 * of a nested name, e.g. `priority.minutesEarly`), or over the form when it names none of `fields`; a success as the
 * form's notice, with the page read again.
 */
export function useConsoleSave<F extends string>(fields: readonly F[], failed: string) {
  const router = useRouter();
  const [errors, setErrors] = useState<Partial<Record<F | 'form', string>>>({});
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);

  /** Sends the call; answers whether it was taken. `saved` words the notice from the answer. */
  async function save<P extends ConsolePath>(
    path: P,
    body: InputOf<P>,
    locale: string,
    saved: (data: OutputOf<P>) => string,
  ): Promise<boolean> {
    setBusy(true);
    setNotice(null);
    const answer = await consoleCall(path, body, locale);
    setBusy(false);
    if (answer.ok) {
      setErrors({});
      setNotice(saved(answer.data));
      router.refresh();
      return true;
    }
    const last = answer.field?.split('.').at(-1);
    const field = last && (fields as readonly string[]).includes(last) ? (last as F) : 'form';
    setErrors({ [field]: answer.message || failed } as Partial<Record<F | 'form', string>>);
    return false;
  }

  return { errors, setErrors, busy, notice, setNotice, save };
}
