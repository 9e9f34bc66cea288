import { notFound } from 'next/navigation';
import Link from 'next/link';
import { env } from '@/lib/env';
import { keyHostOf } from '@/lib/channel/operator';
import { seesEveryChannel } from '@/lib/procedure/roles';
import { consoleTitled, consoleWords, requireConsoleOperator, type ConsolePageParams } from '@/lib/page/console';
import { ConsoleShell } from '@/components/ops/console-shell';
import { ChannelCreateForm } from '@/components/ops/channel-create-form';
import { chanWords, fieldWords } from '@/components/ops/channel-words';

type Props = { params: Promise<ConsolePageParams> };

export const generateMetadata = consoleTitled((t) => t('ops.chan.createTitle'));

/** Creating a channel (issue 31): an owner's page; anyone else finds no such page. */
export default async function NewChannelPage({ params }: Props) {
  const { locale, t } = await consoleWords(params);
  const operator = await requireConsoleOperator();
  if (!seesEveryChannel(operator.role)) notFound();
  const fields = ['key', 'name', 'brandName', 'locale', 'timeZone', 'labels', 'attributes', 'status'];
  return (
    <ConsoleShell t={t} locale={locale} operator={operator} current="channels">
      <p className="text-sm text-gray-600">
        <Link href="/channels" className="underline underline-offset-2 hover:text-gray-900">
          {t('ops.channels.title')}
        </Link>
      </p>
      <h1 className="mt-1 text-2xl font-semibold text-gray-900">{t('ops.chan.createTitle')}</h1>
      <p className="mt-1 mb-6 text-sm text-gray-600">
        {t('ops.chan.createIntro', { example: keyHostOf('NEWSHOP', { brandWord: env().BRAND_WORD }) })}
      </p>
      <ChannelCreateForm
        words={chanWords(t)}
        fieldWords={fieldWords(t, fields)}
        labelChoices={([1, 2, 3, 4] as const).map((l) => ({ value: String(l), label: `${l} · ${t(`ops.label.l${l}`)}` }))}
        locale={locale}
      />
    </ConsoleShell>
  );
}
