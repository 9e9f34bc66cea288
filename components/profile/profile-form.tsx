'use client';

import { useRouter } from 'next/navigation';
import { useId, useState } from 'react';
import { useTranslations } from 'use-intl';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Avatar } from '@/components/ui/avatar';
import { showToast } from '@/components/ui/toast';
import { useApi } from '@/components/shell/api-provider';
import { BusinessError } from '@/lib/client/api-client';
import { AvatarUpload } from './avatar-upload';

type Errors = { nickname?: string; avatar?: string };

/** Where a refusal of profile/update goes: under the field it names (400 `data.field`), else the client's toast alone. */
function placed(error: unknown): Errors {
  if (!(error instanceof BusinessError) || error.code !== 400) return {};
  const data = (typeof error.data === 'object' && error.data !== null ? error.data : {}) as { field?: unknown };
  if (data.field === 'avatar') return { avatar: error.message };
  return { nickname: error.message.replace(/^nickname: /, '') };
}

/**
 * The profile page's form (issue 36, docs/profile.md): the nickname typed and the avatar picked among the shipped
 * ones (or the store's own), saved with one call (`profile/update`). A refusal shows under the field it names, in the
 * page's language. The buyer's own photo (AvatarUpload) becomes the avatar as soon as it is uploaded, and stays among
 * the choices until another avatar is saved (an uploaded photo is kept only while it is the avatar: docs/profile.md).
 */
export function ProfileForm({
  nickname,
  avatar,
  avatars,
  storeAvatar,
  placeholderColor,
}: {
  nickname: string | null;
  avatar: string | null;
  avatars: readonly string[];
  storeAvatar: string;
  placeholderColor: string;
}) {
  const t = useTranslations('profile');
  const tu = useTranslations('avatarUpload');
  const api = useApi();
  const router = useRouter();
  const id = useId();
  const [name, setName] = useState(nickname ?? '');
  const [picked, setPicked] = useState<string | null>(avatar);
  const [photo, setPhoto] = useState<string | null>(avatar !== null && !avatars.includes(avatar) ? avatar : null);
  const [errors, setErrors] = useState<Errors>({});
  const [busy, setBusy] = useState(false);

  const save = async () => {
    if (busy) return;
    setBusy(true);
    setErrors({});
    try {
      await api.post('/market/api/profile/update', { nickname: name === '' ? null : name, avatar: picked });
      showToast('success', t('saved'));
      if (picked !== photo) setPhoto(null);
      router.refresh();
    } catch (error) {
      setErrors(placed(error));
    } finally {
      setBusy(false);
    }
  };

  const choices: Array<{ src: string; value: string | null; label: string }> = [
    ...(photo ? [{ src: photo, value: photo, label: tu('photo') }] : []),
    { src: storeAvatar, value: null, label: t('avatarDefault') },
    ...avatars.map((src, i) => ({ src, value: src, label: t('avatarOption', { index: i + 1 }) })),
  ];

  return (
    <Card as="section" className="flex flex-col gap-3 p-4" data-testid="profile-form">
      <label htmlFor={id} className="text-sm font-medium text-skin-1">
        {t('nickname')}
      </label>
      <input
        id={id}
        value={name}
        onChange={(e) => setName(e.target.value)}
        maxLength={40}
        autoComplete="nickname"
        placeholder={t('nicknamePlaceholder')}
        aria-invalid={errors.nickname ? true : undefined}
        aria-describedby={`${id}-hint ${id}-error`}
        className="h-[0.72rem] rounded-lg border border-black/10 bg-white px-3 text-base"
        data-testid="profile-nickname"
      />
      <p id={`${id}-hint`} className="text-xs text-neutral-500">
        {t('nicknameHint')}
      </p>
      {errors.nickname ? (
        <p id={`${id}-error`} role="alert" className="text-sm text-red-600" data-testid="profile-nickname-error">
          {errors.nickname}
        </p>
      ) : null}
      <fieldset className="mt-1 flex flex-col gap-2">
        <legend className="mb-2 text-sm font-medium text-skin-1">{t('avatar')}</legend>
        <p className="text-xs text-neutral-500">{t('avatarHint')}</p>
        <div className="grid grid-cols-4 gap-3" role="radiogroup" aria-label={t('avatar')}>
          {choices.map((choice) => {
            const on = picked === choice.value;
            return (
              <button
                key={choice.label}
                type="button"
                role="radio"
                aria-checked={on}
                aria-label={choice.label}
                onClick={() => setPicked(choice.value)}
                className={`flex items-center justify-center rounded-full p-1 ring-2 ${on ? 'ring-skin-button' : 'ring-transparent'}`}
                data-testid="profile-avatar-choice"
              >
                <Avatar src={choice.src} size="1.2rem" placeholderColor={placeholderColor} />
              </button>
            );
          })}
        </div>
        <AvatarUpload
          onUploaded={(uploaded) => {
            setPhoto(uploaded);
            setPicked(uploaded);
            setErrors({});
            showToast('success', tu('uploaded'));
            router.refresh();
          }}
          onRefused={(message) => setErrors({ avatar: message })}
        />
        {errors.avatar ? (
          <p role="alert" className="text-sm text-red-600" data-testid="profile-avatar-error">
            {errors.avatar}
          </p>
        ) : null}
      </fieldset>
      <Button type="primary" loading={busy} onClick={save}>
        <span data-testid="profile-save">{t('save')}</span>
      </Button>
    </Card>
  );
}
