'use client';

import { useRouter } from 'next/navigation';
import { useState, type FormEvent } from 'react';
import type { ApiKeyView } from '@/lib/operator/api-keys';
import { consoleCall } from './console-call';
import { ConsoleError, ConsoleField } from './field';
import { ChannelChecks, fill, TeamShownOnce, teamMoment, WIDE } from './team-copy';

export type ApiKeyWords = Record<
  | 'keys'
  | 'keysIntro'
  | 'keysEveryone'
  | 'keyLabel'
  | 'keyPrefix'
  | 'keyOperator'
  | 'role'
  | 'channels'
  | 'keyCreated'
  | 'keyLastUsed'
  | 'status'
  | 'keyRevoked'
  | 'keyActive'
  | 'keyNone'
  | 'keyCreate'
  | 'keySubmit'
  | 'keyDone'
  | 'revoke'
  | 'revokeConfirm'
  | 'copy'
  | 'copied'
  | 'working'
  | 'never'
  | 'everyChannel'
  | 'roleOwner'
  | 'roleManager'
  | 'roleSupport',
  string
>;

type Role = 'owner' | 'manager' | 'support';
const RANKED: Role[] = ['support', 'manager', 'owner'];

/**
 * The Team page's API keys (issue 31): the keys the operator manages (their own; an owner: everyone's) with label,
 * prefix, role, channels, created, last used and whether revoked; a new key of one's own (a role up to one's own,
 * channels among one's own), shown once with a copy button; and revoking. Creating a key asks for the password and a
 * code again (console-call.ts).
 */
export function TeamApiKeys({
  keys,
  myRole,
  myChannels,
  words: w,
  locale,
}: {
  keys: ApiKeyView[];
  myRole: Role;
  myChannels: string[];
  words: ApiKeyWords;
  locale: string;
}) {
  const router = useRouter();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [made, setMade] = useState<string | null>(null);
  const roleWord = (role: Role) => (role === 'owner' ? w.roleOwner : role === 'manager' ? w.roleManager : w.roleSupport);
  const roles = RANKED.slice(0, RANKED.indexOf(myRole) + 1).reverse();

  async function create(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const formElement = event.currentTarget;
    const form = new FormData(formElement);
    const role = String(form.get('role')) as Role;
    setBusy(true);
    setError(null);
    setMade(null);
    const answer = await consoleCall(
      '/ops/api/apiKey/create',
      { label: String(form.get('label') ?? ''), role, channels: role === 'owner' ? [] : form.getAll('channels').map(String) },
      locale,
    );
    setBusy(false);
    if (!answer.ok) {
      setError(answer.message);
      return;
    }
    setMade(answer.data.key);
    formElement.reset();
    router.refresh();
  }

  async function revoke(key: ApiKeyView) {
    if (!window.confirm(fill(w.revokeConfirm, { label: key.label }))) return;
    setBusy(true);
    setError(null);
    const answer = await consoleCall('/ops/api/apiKey/revoke', { id: key.id }, locale);
    setBusy(false);
    if (!answer.ok) setError(answer.message);
    else router.refresh();
  }

  return (
    <section aria-labelledby="team-keys" className="space-y-4">
      <div>
        <h2 id="team-keys" className="text-lg font-semibold text-gray-900">
          {w.keys}
        </h2>
        <p className="mt-1 max-w-3xl text-sm text-gray-600">
          {w.keysIntro} {myRole === 'owner' ? w.keysEveryone : null}
        </p>
      </div>
      {keys.length === 0 ? (
        <p className="rounded-lg border border-dashed border-gray-300 bg-white p-6 text-center text-gray-600">{w.keyNone}</p>
      ) : (
        <div className="overflow-x-auto rounded-lg border border-gray-200 bg-white">
          <table className="min-w-full divide-y divide-gray-200 text-left text-sm">
            <thead className="bg-gray-50 text-xs font-semibold tracking-wide text-gray-600 uppercase">
              <tr>
                {[w.keyLabel, w.keyPrefix, w.keyOperator, w.role, w.channels, w.keyCreated, w.keyLastUsed, w.status, ''].map(
                  (column, i) => (
                    <th
                      key={i}
                      scope="col"
                      className={`px-4 py-3 ${column === w.keyPrefix || column === w.keyCreated || column === w.keyLastUsed ? WIDE : ''}`}
                    >
                      {column}
                    </th>
                  ),
                )}
              </tr>
            </thead>
            <tbody className="divide-y divide-gray-100">
              {keys.map((k) => (
                <tr key={k.id} data-api-key={k.label}>
                  <td className="px-4 py-3 font-medium text-gray-900">
                    {k.label}
                    <span className="mt-1 block text-xs font-normal whitespace-nowrap text-gray-600 lg:hidden">
                      <span className="font-mono">{k.prefix}…</span>
                      <br />
                      {w.keyCreated}: {teamMoment(k.createdAt, w.never)}
                      <br />
                      {w.keyLastUsed}: {teamMoment(k.lastUsedAt, w.never)}
                    </span>
                  </td>
                  <td className={`px-4 py-3 font-mono text-xs ${WIDE}`}>{k.prefix}…</td>
                  <td className="px-4 py-3">{k.operator}</td>
                  <td className="px-4 py-3">{roleWord(k.role)}</td>
                  <td className="px-4 py-3 font-mono text-xs">
                    {k.role === 'owner' ? <span className="font-sans">{w.everyChannel}</span> : k.channels.join(', ')}
                  </td>
                  <td className={`px-4 py-3 whitespace-nowrap ${WIDE}`}>{teamMoment(k.createdAt, w.never)}</td>
                  <td className={`px-4 py-3 whitespace-nowrap ${WIDE}`}>{teamMoment(k.lastUsedAt, w.never)}</td>
                  <td className="px-4 py-3">
                    <span
                      className={`rounded-full px-2 py-0.5 text-xs font-semibold ${k.revokedAt ? 'bg-gray-100 text-gray-700' : 'bg-green-50 text-green-800'}`}
                    >
                      {k.revokedAt ? w.keyRevoked : w.keyActive}
                    </span>
                  </td>
                  <td className="px-4 py-3">
                    {k.revokedAt ? null : (
                      <button
                        type="button"
                        disabled={busy}
                        onClick={() => revoke(k)}
                        className="rounded-md border border-red-300 bg-white px-2.5 py-1 text-xs font-medium text-red-800 disabled:opacity-60"
                      >
                        {w.revoke}
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {made ? <TeamShownOnce text={w.keyDone} value={made} copy={w.copy} copied={w.copied} testId="api-key" /> : null}
      <form onSubmit={create} className="max-w-xl space-y-4 rounded-lg border border-gray-200 bg-white p-5" aria-labelledby="key-create">
        <h3 id="key-create" className="text-base font-semibold text-gray-900">
          {w.keyCreate}
        </h3>
        <ConsoleField id="key-label" name="label" label={w.keyLabel} maxLength={64} required />
        <label className="block text-sm font-medium text-gray-800">
          {w.role}
          <select name="role" defaultValue={roles.at(-1)} className="mt-1 block w-full rounded-md border border-gray-300 px-2 py-2">
            {roles.map((r) => (
              <option key={r} value={r}>
                {roleWord(r)}
              </option>
            ))}
          </select>
        </label>
        <ChannelChecks name="channels" keys={myChannels} checked={[]} legend={w.channels} />
        <ConsoleError message={error} />
        <button
          type="submit"
          disabled={busy}
          className="rounded-md bg-blue-700 px-4 py-2 text-sm font-semibold text-white hover:bg-blue-800 disabled:opacity-60"
        >
          {busy ? w.working : w.keySubmit}
        </button>
      </form>
    </section>
  );
}
