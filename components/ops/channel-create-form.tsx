'use client';

import { useRouter } from 'next/navigation';
import { useState, type FormEvent } from 'react';
import { consoleCall } from './console-call';
import { CheckGroup, fieldErrors, SaveRow, SelectField, TextField, type FieldErrors } from './channel-form';
import type { ChanWords } from './channel-words';

export const ATTRIBUTES = ['hideAmount', 'buyGoodsTitle', 'giftOnly', 'destroyTitledReceive', 'noActive'] as const;
export const attributeWord = (a: (typeof ATTRIBUTES)[number]) => `attr${a[0]!.toUpperCase()}${a.slice(1)}` as keyof ChanWords;

/** The labels' choices (spec §6), in the console's words. */
export type LabelChoice = { value: string; label: string };

/**
 * Creating a channel (issue 31, owners only): key, name, brand name, language, time zone, labels, class attributes,
 * status. Each refusal shows under the field it names; on success the channel's settings open.
 */
export function ChannelCreateForm({
  words,
  fieldWords,
  labelChoices,
  locale,
}: {
  words: ChanWords;
  fieldWords: Record<string, string>;
  labelChoices: readonly LabelChoice[];
  locale: string;
}) {
  const router = useRouter();
  const [errors, setErrors] = useState<FieldErrors>({});
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const localeChoice = String(form.get('locale') ?? '');
    setBusy(true);
    setErrors({});
    const answer = await consoleCall(
      '/ops/api/channel/create',
      {
        key: String(form.get('key') ?? ''),
        name: String(form.get('name') ?? ''),
        brandName: String(form.get('brandName') ?? ''),
        locale: localeChoice === 'en' || localeChoice === 'zh-CN' ? localeChoice : null,
        timeZone: String(form.get('timeZone') ?? ''),
        labels: form.getAll('labels').map(Number) as (1 | 2 | 3 | 4)[],
        attributes: Object.fromEntries(form.getAll('attributes').map((a) => [String(a), true])),
        status: form.get('status') === '0' ? 0 : 1,
      },
      locale,
    );
    setBusy(false);
    if (answer.ok) router.push(`/channels/${answer.data.key}/settings`);
    else setErrors(answer.message ? fieldErrors(answer, fieldWords) : { '': words.working });
  }

  return (
    <form onSubmit={submit} noValidate className="max-w-2xl space-y-5 rounded-lg border border-gray-200 bg-white p-6">
      <div className="grid gap-5 md:grid-cols-2">
        <TextField id="key" name="key" label={words.key} hint={words.keyHint} error={errors.key} maxLength={32} autoComplete="off" />
        <TextField id="name" name="name" label={words.name} hint={words.nameHint} error={errors.name} maxLength={60} />
        <TextField
          id="brandName"
          name="brandName"
          label={words.brandName}
          hint={words.brandNameHint}
          error={errors.brandName}
          maxLength={60}
        />
        <SelectField
          id="locale"
          name="locale"
          label={words.locale}
          error={errors.locale}
          defaultValue=""
          options={[
            { value: '', label: words.localeAuto },
            { value: 'zh-CN', label: words.localeZh },
            { value: 'en', label: words.localeEn },
          ]}
        />
        <TextField
          id="timeZone"
          name="timeZone"
          label={words.timeZone}
          hint={words.timeZoneHint}
          error={errors.timeZone}
          defaultValue="Asia/Shanghai"
          maxLength={64}
        />
        <SelectField
          id="status"
          name="status"
          label={words.status}
          error={errors.status}
          defaultValue="1"
          options={[
            { value: '1', label: words.statusOpen },
            { value: '0', label: words.statusPaused },
          ]}
        />
      </div>
      <CheckGroup
        name="labels"
        legend={words.labels}
        hint={words.labelsHint}
        error={errors.labels}
        options={labelChoices}
        checked={['1']}
      />
      <CheckGroup
        name="attributes"
        legend={words.attributes}
        error={errors.attributes}
        options={ATTRIBUTES.map((a) => ({ value: a, label: words[attributeWord(a)] }))}
        checked={[]}
      />
      <SaveRow label={words.create} busy={busy} busyLabel={words.creating} done={null} error={errors['']} />
    </form>
  );
}
