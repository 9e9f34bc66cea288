'use client';

import { useRef, useState } from 'react';
import { useLocale, useTranslations } from 'use-intl';
import { Button } from '@/components/ui/button';

/** Where the photo goes, and the header that proves it comes from the store's own page (lib/server/avatar-upload.ts). */
const UPLOAD_PATH = '/api/market/api/profile/avatar';
const UPLOAD_HEADER = 'x-avatar-upload';

type Answer = { code?: unknown; message?: unknown; data?: { avatar?: unknown } | null };

/**
 * "Upload a photo" beside the shipped avatars (issue 36, docs/profile.md): a button that opens the file picker
 * (images only), sends the photo's bytes as they are, and shows a spinner while the store checks, crops and stores it.
 * The photo becomes the avatar at once (the server sets it); a refusal comes back in the page's language and is shown
 * under the avatars by the form.
 */
export function AvatarUpload({ onUploaded, onRefused }: { onUploaded: (avatar: string) => void; onRefused: (message: string) => void }) {
  const t = useTranslations('avatarUpload');
  const locale = useLocale();
  const input = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);

  const send = async (file: File) => {
    setBusy(true);
    try {
      const response = await fetch(UPLOAD_PATH, {
        method: 'POST',
        credentials: 'same-origin',
        headers: { [UPLOAD_HEADER]: '1', 'accept-language': locale, 'content-type': 'application/octet-stream' },
        body: file,
      });
      const answer = (await response.json().catch(() => ({}))) as Answer;
      if (answer.code === 200 && typeof answer.data?.avatar === 'string') onUploaded(answer.data.avatar);
      else onRefused(typeof answer.message === 'string' && answer.message ? answer.message : t('failed'));
    } catch {
      onRefused(t('failed'));
    } finally {
      setBusy(false);
      // The same file picked again is a new try.
      if (input.current) input.current.value = '';
    }
  };

  return (
    <div className="flex flex-col items-start gap-1">
      <input
        ref={input}
        type="file"
        accept="image/png,image/jpeg,image/webp,image/*"
        className="sr-only"
        tabIndex={-1}
        aria-hidden="true"
        onChange={(event) => {
          const file = event.target.files?.[0];
          if (file) void send(file);
        }}
        data-testid="profile-avatar-file"
      />
      <Button type="info" size="md" loading={busy} onClick={() => input.current?.click()}>
        <span data-testid="profile-avatar-upload">{busy ? t('uploading') : t('upload')}</span>
      </Button>
      <p className="text-xs text-neutral-500">{t('hint')}</p>
    </div>
  );
}
