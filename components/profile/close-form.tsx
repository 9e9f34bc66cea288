'use client';

import { useRouter } from 'next/navigation';
import { useEffect, useId, useState } from 'react';
import { useTranslations } from 'use-intl';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { confirm } from '@/components/ui/confirm';
import { showToast } from '@/components/ui/toast';
import { useApi } from '@/components/shell/api-provider';
import { useStorefrontStore } from '@/components/shell/storefront-provider';
import { BusinessError } from '@/lib/client/api-client';
import { endWebSession } from '@/lib/client/sign-out';

/**
 * Closing the account (issue 36, docs/profile.md): a code texted to the buyer's own phone for this purpose
 * (`profile/closeCode`), typed, a last confirm sheet, then `profile/close`; signed out here as at logout, and on to
 * /login. A refusal of the code shows under it; the others are the client's toasts.
 */
export function CloseForm({ phone, demoOutbox }: { phone: string; demoOutbox: boolean }) {
  const t = useTranslations('profile');
  const login = useTranslations('login');
  const common = useTranslations('common');
  const api = useApi();
  const store = useStorefrontStore();
  const router = useRouter();
  const id = useId();
  const [code, setCode] = useState('');
  const [sending, setSending] = useState(false);
  const [closing, setClosing] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [demoCode, setDemoCode] = useState<string | null>(null);
  const [cooldownUntil, setCooldownUntil] = useState(0);
  const [now, setNow] = useState(() => Date.now());
  const secondsLeft = Math.max(0, Math.ceil((cooldownUntil - now) / 1000));

  useEffect(() => {
    if (secondsLeft <= 0) return;
    const timer = setInterval(() => setNow(Date.now()), 500);
    return () => clearInterval(timer);
  }, [secondsLeft]);

  const send = async () => {
    if (sending || secondsLeft > 0) return;
    setSending(true);
    try {
      const sent = await api.post('/market/api/profile/closeCode', {});
      setCooldownUntil(Date.now() + sent.cooldownSeconds * 1000);
      setNow(Date.now());
      showToast('success', t('codeSent', { phone }));
      if (demoOutbox) setDemoCode(sent.demoCode ?? null);
    } catch {
      // The client said why (a wait, an order to pay).
    } finally {
      setSending(false);
    }
  };

  const close = async () => {
    if (closing || !/^\d{6}$/.test(code)) return;
    try {
      await confirm({
        title: t('confirmCloseTitle'),
        content: t('confirmCloseBody'),
        cancelText: common('cancel'),
        confirmText: t('confirmClose'),
      });
    } catch {
      return; // cancelled
    }
    setClosing(true);
    setError(null);
    try {
      await api.post('/market/api/profile/close', { code });
    } catch (failed) {
      if (failed instanceof BusinessError && failed.code === 400) setError(failed.message.replace(/^code: /, ''));
      setClosing(false);
      return;
    }
    showToast('success', t('closed'));
    store.getState().clearUser();
    await endWebSession();
    store.getState().setRouterType('replace');
    router.replace('/login');
    router.refresh();
  };

  return (
    <Card as="section" className="flex flex-col gap-3 p-4" data-testid="close-form">
      <label htmlFor={id} className="text-sm font-medium text-skin-1">
        {t('code')}
      </label>
      <div className="flex gap-2">
        <input
          id={id}
          value={code}
          onChange={(e) => setCode(e.target.value.replace(/\D/g, '').slice(0, 6))}
          inputMode="numeric"
          autoComplete="one-time-code"
          placeholder="000000"
          aria-invalid={error ? true : undefined}
          aria-describedby={`${id}-error`}
          className="h-[0.72rem] min-w-0 flex-1 rounded-lg border border-black/10 bg-white px-3 font-mono text-base tracking-wider tabular-nums"
          data-testid="close-code"
        />
        <button
          type="button"
          onClick={send}
          disabled={sending || secondsLeft > 0}
          className="h-[0.72rem] shrink-0 rounded-lg border border-skin-1 px-3 text-sm font-medium text-skin-1 disabled:border-black/10 disabled:text-neutral-400"
          data-testid="close-send-code"
        >
          {secondsLeft > 0 ? t('resend', { seconds: secondsLeft }) : t('sendCode')}
        </button>
      </div>
      {error ? (
        <p id={`${id}-error`} role="alert" className="text-sm text-red-600" data-testid="close-code-error">
          {error}
        </p>
      ) : null}
      {demoCode ? (
        <p data-testid="demo-code" className="rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-900">
          {login('demoOutbox', { code: demoCode })}
        </p>
      ) : null}
      <Button type="main" loading={closing} disabled={!/^\d{6}$/.test(code)} onClick={close}>
        <span data-testid="close-confirm">{t('confirmClose')}</span>
      </Button>
    </Card>
  );
}
