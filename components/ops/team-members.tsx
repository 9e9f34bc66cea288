'use client';

import { useRouter } from 'next/navigation';
import { useState, type FormEvent } from 'react';
import type { TeamMember } from '@/lib/operator/accounts';
import { consoleCall } from './console-call';
import { ConsoleError, ConsoleField } from './field';
import { ChannelChecks, fill, TeamShownOnce, teamMoment, WIDE } from './team-copy';

export type TeamWords = Record<
  | 'members'
  | 'name'
  | 'role'
  | 'status'
  | 'channels'
  | 'secondFactor'
  | 'lastSignIn'
  | 'actions'
  | 'statusInvited'
  | 'statusActive'
  | 'statusDisabled'
  | 'set'
  | 'notSet'
  | 'never'
  | 'everyChannel'
  | 'you'
  | 'edit'
  | 'save'
  | 'cancel'
  | 'disable'
  | 'enable'
  | 'disableConfirm'
  | 'resetFactor'
  | 'resetConfirm'
  | 'resetDone'
  | 'invite'
  | 'inviteName'
  | 'inviteNameHint'
  | 'inviteSubmit'
  | 'inviteDone'
  | 'copy'
  | 'copied'
  | 'working'
  | 'channelsHint'
  | 'roleOwner'
  | 'roleManager'
  | 'roleSupport',
  string
>;

const ROLES = ['owner', 'manager', 'support'] as const;
type Role = (typeof ROLES)[number];
const roleWord = (w: TeamWords, role: Role) => (role === 'owner' ? w.roleOwner : role === 'manager' ? w.roleManager : w.roleSupport);
const badge = 'rounded-full px-2 py-0.5 text-xs font-semibold';
const smallButton = 'rounded-md border px-2.5 py-1 text-xs font-medium disabled:opacity-60';

/**
 * The Team page's operators (issue 31; owners only): each with role, status, channels, second factor and last sign-in;
 * an owner changes another's role and channels, disables or enables them, and resets their second factor (the new
 * one-time link shown once); and invites new operators (the link shown once). Sensitive writes ask for the password
 * and a code again through console-call.ts.
 */
export function TeamMembers({
  members,
  channelKeys,
  me,
  words: w,
  locale,
}: {
  members: TeamMember[];
  channelKeys: string[];
  me: number;
  words: TeamWords;
  locale: string;
}) {
  const router = useRouter();
  const [editing, setEditing] = useState<number | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<{ id: number | 'invite'; message: string } | null>(null);
  const [shown, setShown] = useState<{ text: string; url: string } | null>(null);

  async function act(id: number | 'invite', run: () => Promise<{ ok: true } | { ok: false; message: string }>) {
    setBusy(true);
    setError(null);
    const answer = await run();
    setBusy(false);
    if (!answer.ok) {
      setError({ id, message: answer.message || w.working });
      return false;
    }
    router.refresh();
    return true;
  }

  async function save(member: TeamMember, event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const role = String(form.get('role')) as Role;
    const channels = form.getAll('channels').map(String);
    if (await act(member.id, () => consoleCall('/ops/api/team/update', { operatorId: member.id, role, channels }, locale)))
      setEditing(null);
  }

  async function invite(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const formElement = event.currentTarget;
    const form = new FormData(formElement);
    const role = String(form.get('role')) as Role;
    setShown(null);
    let made: { name: string; enrolUrl: string; expiresAt: string } | null = null;
    const done = await act('invite', async () => {
      const answer = await consoleCall(
        '/ops/api/operator/invite',
        { name: String(form.get('name') ?? ''), role, channels: role === 'owner' ? [] : form.getAll('channels').map(String) },
        locale,
      );
      if (answer.ok) made = answer.data;
      return answer;
    });
    if (done && made) {
      const { name, enrolUrl, expiresAt } = made;
      setShown({ text: fill(w.inviteDone, { name, expires: teamMoment(expiresAt, '') }), url: enrolUrl });
      formElement.reset();
    }
  }

  return (
    <section aria-labelledby="team-members" className="space-y-6">
      <h2 id="team-members" className="text-lg font-semibold text-gray-900">
        {w.members}
      </h2>
      <div className="overflow-x-auto rounded-lg border border-gray-200 bg-white">
        <table className="min-w-full divide-y divide-gray-200 text-left text-sm">
          <thead className="bg-gray-50 text-xs font-semibold tracking-wide text-gray-600 uppercase">
            <tr>
              {[w.name, w.role, w.status, w.channels, w.secondFactor, w.lastSignIn, w.actions].map((column) => (
                <th key={column} scope="col" className={`px-4 py-3 ${column === w.lastSignIn ? WIDE : ''}`}>
                  {column}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-gray-100">
            {members.map((m) => (
              <tr key={m.id} data-operator={m.name} className="align-top">
                <td className="px-4 py-3 font-medium text-gray-900">
                  {m.name}
                  {m.id === me ? <span className="ml-1 text-xs text-gray-600">({w.you})</span> : null}
                  <span className="mt-1 block text-xs font-normal text-gray-600 lg:hidden">
                    {w.lastSignIn}: {teamMoment(m.lastSignInAt, w.never)}
                  </span>
                </td>
                <td className="px-4 py-3">{roleWord(w, m.role)}</td>
                <td className="px-4 py-3">
                  <span
                    data-testid="operator-status"
                    className={`${badge} ${m.status === 'active' ? 'bg-green-50 text-green-800' : m.status === 'disabled' ? 'bg-red-50 text-red-800' : 'bg-amber-50 text-amber-800'}`}
                  >
                    {m.status === 'active' ? w.statusActive : m.status === 'disabled' ? w.statusDisabled : w.statusInvited}
                  </span>
                </td>
                <td className="px-4 py-3 font-mono text-xs" data-testid="operator-channels">
                  {m.role === 'owner' ? <span className="font-sans">{w.everyChannel}</span> : m.channels.join(', ') || '—'}
                </td>
                <td className="px-4 py-3">{m.secondFactor ? w.set : w.notSet}</td>
                <td className={`px-4 py-3 whitespace-nowrap text-gray-700 ${WIDE}`}>{teamMoment(m.lastSignInAt, w.never)}</td>
                <td className="px-4 py-3">
                  {m.id === me ? null : editing === m.id ? (
                    <form onSubmit={(e) => save(m, e)} className="min-w-64 space-y-3" aria-label={`${w.edit}: ${m.name}`}>
                      <label className="block text-sm font-medium text-gray-800">
                        {w.role}
                        <select
                          name="role"
                          defaultValue={m.role}
                          className="mt-1 block w-full rounded-md border border-gray-300 px-2 py-1.5"
                        >
                          {ROLES.map((r) => (
                            <option key={r} value={r}>
                              {roleWord(w, r)}
                            </option>
                          ))}
                        </select>
                      </label>
                      <ChannelChecks name="channels" keys={channelKeys} checked={m.channels} legend={w.channels} />
                      <div className="flex gap-2">
                        <button type="submit" disabled={busy} className={`${smallButton} border-blue-700 bg-blue-700 text-white`}>
                          {busy ? w.working : w.save}
                        </button>
                        <button type="button" onClick={() => setEditing(null)} className={`${smallButton} border-gray-300 bg-white`}>
                          {w.cancel}
                        </button>
                      </div>
                    </form>
                  ) : (
                    <div className="flex flex-wrap gap-2">
                      <button
                        type="button"
                        onClick={() => setEditing(m.id)}
                        className={`${smallButton} border-gray-300 bg-white text-gray-800`}
                      >
                        {w.edit}
                      </button>
                      {m.status === 'disabled' ? (
                        <button
                          type="button"
                          disabled={busy}
                          onClick={() => act(m.id, () => consoleCall('/ops/api/team/enable', { operatorId: m.id }, locale))}
                          className={`${smallButton} border-gray-300 bg-white text-gray-800`}
                        >
                          {w.enable}
                        </button>
                      ) : (
                        <button
                          type="button"
                          disabled={busy}
                          onClick={() =>
                            window.confirm(fill(w.disableConfirm, { name: m.name })) &&
                            act(m.id, () => consoleCall('/ops/api/team/disable', { operatorId: m.id }, locale))
                          }
                          className={`${smallButton} border-red-300 bg-white text-red-800`}
                        >
                          {w.disable}
                        </button>
                      )}
                      <button
                        type="button"
                        disabled={busy}
                        onClick={async () => {
                          if (!window.confirm(fill(w.resetConfirm, { name: m.name }))) return;
                          let url = '';
                          let expires = '';
                          const done = await act(m.id, async () => {
                            const answer = await consoleCall('/ops/api/team/resetSecondFactor', { operatorId: m.id }, locale);
                            if (answer.ok) [url, expires] = [answer.data.enrolUrl, answer.data.expiresAt];
                            return answer;
                          });
                          if (done) setShown({ text: fill(w.resetDone, { name: m.name, expires: teamMoment(expires, '') }), url });
                        }}
                        className={`${smallButton} border-gray-300 bg-white text-gray-800`}
                      >
                        {w.resetFactor}
                      </button>
                    </div>
                  )}
                  {error?.id === m.id ? (
                    <p role="alert" className="mt-2 max-w-64 text-sm text-red-700">
                      {error.message}
                    </p>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {shown ? <TeamShownOnce text={shown.text} value={shown.url} copy={w.copy} copied={w.copied} testId="one-time-link" /> : null}

      <form onSubmit={invite} className="max-w-xl space-y-4 rounded-lg border border-gray-200 bg-white p-5" aria-labelledby="team-invite">
        <h3 id="team-invite" className="text-base font-semibold text-gray-900">
          {w.invite}
        </h3>
        <ConsoleField
          id="invite-name"
          name="name"
          label={w.inviteName}
          hint={w.inviteNameHint}
          autoCapitalize="none"
          spellCheck={false}
          required
        />
        <label className="block text-sm font-medium text-gray-800">
          {w.role}
          <select name="role" defaultValue="manager" className="mt-1 block w-full rounded-md border border-gray-300 px-2 py-2">
            {ROLES.map((r) => (
              <option key={r} value={r}>
                {roleWord(w, r)}
              </option>
            ))}
          </select>
        </label>
        <ChannelChecks name="channels" keys={channelKeys} checked={[]} legend={w.channels} />
        <p className="text-sm text-gray-600">{w.channelsHint}</p>
        <ConsoleError message={error?.id === 'invite' ? error.message : null} />
        <button
          type="submit"
          disabled={busy}
          className="rounded-md bg-blue-700 px-4 py-2 text-sm font-semibold text-white hover:bg-blue-800 disabled:opacity-60"
        >
          {busy ? w.working : w.inviteSubmit}
        </button>
      </form>
    </section>
  );
}
