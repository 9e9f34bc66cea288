import { getDb } from '@/lib/db/client';
import { listTeam } from '@/lib/operator/accounts';
import { listApiKeys } from '@/lib/operator/api-keys';
import { listConsoleChannels } from '@/lib/operator/channels';
import { consoleTitled, consoleWords, requireConsoleOperator, type ConsolePageParams } from '@/lib/page/console';
import { ConsoleShell } from '@/components/ops/console-shell';
import { TeamMembers, type TeamWords } from '@/components/ops/team-members';
import { TeamApiKeys, type ApiKeyWords } from '@/components/ops/team-api-keys';
import type { Translator } from '@/lib/i18n/translator';

type Props = { params: Promise<ConsolePageParams> };

export const generateMetadata = consoleTitled((t) => t('ops.team.title'));

const TEAM_WORDS = [
  'members',
  'name',
  'role',
  'status',
  'channels',
  'secondFactor',
  'lastSignIn',
  'actions',
  'statusInvited',
  'statusActive',
  'statusDisabled',
  'set',
  'notSet',
  'never',
  'everyChannel',
  'you',
  'edit',
  'save',
  'cancel',
  'disable',
  'enable',
  'disableConfirm',
  'resetFactor',
  'resetConfirm',
  'resetDone',
  'invite',
  'inviteName',
  'inviteNameHint',
  'inviteSubmit',
  'inviteDone',
  'copy',
  'copied',
  'working',
  'channelsHint',
] as const;
const KEY_WORDS = [
  'keys',
  'keysIntro',
  'keysEveryone',
  'keyLabel',
  'keyPrefix',
  'keyOperator',
  'role',
  'channels',
  'keyCreated',
  'keyLastUsed',
  'status',
  'keyRevoked',
  'keyActive',
  'keyNone',
  'keyCreate',
  'keySubmit',
  'keyDone',
  'revoke',
  'revokeConfirm',
  'copy',
  'copied',
  'working',
  'never',
  'everyChannel',
] as const;

/** The words a client part needs, raw (its `{name}` values are filled in the browser), with the role names. */
function wordsOf<K extends string>(t: Translator, keys: readonly K[]): Record<K | 'roleOwner' | 'roleManager' | 'roleSupport', string> {
  const raw = (key: K) => t.raw(`ops.team.${key}` as Parameters<Translator['raw']>[0]) as string;
  return {
    ...(Object.fromEntries(keys.map((k) => [k, raw(k)])) as Record<K, string>),
    roleOwner: t('ops.role.owner'),
    roleManager: t('ops.role.manager'),
    roleSupport: t('ops.role.support'),
  };
}

/**
 * The Team page (issue 31): for owners, every operator with role, status, channels, second factor and last sign-in,
 * with invite, role and channel changes, disable/enable and second-factor reset; for every operator, their API keys
 * (an owner: everyone's). A disabled operator's open page goes to sign-in on its next load (requireConsoleOperator).
 */
export default async function TeamPage({ params }: Props) {
  const { locale, t } = await consoleWords(params);
  const operator = await requireConsoleOperator();
  const db = getDb();
  const owner = operator.role === 'owner';
  const [members, keys, channels] = await Promise.all([
    owner ? listTeam(db) : [],
    listApiKeys(db, operator),
    listConsoleChannels(db, operator),
  ]);
  const channelKeys = channels.map((c) => c.key);
  return (
    <ConsoleShell t={t} locale={locale} operator={operator} current="team">
      <div className="mb-6">
        <h1 className="text-2xl font-semibold text-gray-900">{t('ops.team.title')}</h1>
        <p className="mt-1 text-sm text-gray-600">{t('ops.team.intro')}</p>
      </div>
      <div className="space-y-10">
        {owner ? (
          <TeamMembers
            members={members}
            channelKeys={channelKeys}
            me={operator.operatorId}
            words={wordsOf(t, TEAM_WORDS) as TeamWords}
            locale={locale}
          />
        ) : null}
        <TeamApiKeys
          keys={keys}
          myRole={operator.role}
          myChannels={channelKeys}
          words={wordsOf(t, KEY_WORDS) as ApiKeyWords}
          locale={locale}
        />
      </div>
    </ConsoleShell>
  );
}
