'use client';

import { useEffect, useRef, useState } from 'react';
import { TermsConsent } from '@/components/ui/terms-consent';
import { signIn } from 'next-auth/react';
import { useTranslations } from 'use-intl';
import { Button } from '@/components/ui/button';
import { deferToast, showToast } from '@/components/ui/toast';
import { useApi } from '@/components/shell/api-provider';
import { useStorefrontStore } from '@/components/shell/storefront-provider';
import { normalizePhone, phoneProblem, type PhoneProblem } from '@/lib/auth/phone';
import { safeRedirect } from '@/lib/auth/redirect';
import { maskPhone } from '@/lib/auth/mask';
import { SliderCaptcha } from './slider-captcha';

/** Problems worth showing while the buyer is still typing: the ones more digits cannot fix. */
const SHOWN_WHILE_TYPING: readonly PhoneProblem[] = ['notDigits', 'tooLong', 'notMobile'];

/**
 * Phone + SMS code login (spec §4, §5, §7): the phone is checked as it is typed; "Get code" asks for the slider
 * captcha, whose ticket rides on getAuthCode; the code logs in through the API (token from the `authorization`
 * header), then next-auth turns the token into the HttpOnly session cookie. After login: the profile, the brand
 * binding, the 'welcome' toast, and back to where the buyer was going.
 */
export function LoginForm({ brandName, redirectTo, demoOutbox }: { brandName: string; redirectTo: string; demoOutbox: boolean }) {
  const t = useTranslations('login');
  const api = useApi();
  const store = useStorefrontStore();
  const [phone, setPhone] = useState('');
  const [phoneBlurred, setPhoneBlurred] = useState(false);
  const [code, setCode] = useState('');
  const [agreed, setAgreed] = useState(false);
  const [captchaOpen, setCaptchaOpen] = useState(false);
  const [sending, setSending] = useState(false);
  const [cooldownUntil, setCooldownUntil] = useState(0);
  const [now, setNow] = useState(() => Date.now());
  const [loggingIn, setLoggingIn] = useState(false);
  const [demoCode, setDemoCode] = useState<string | null>(null);
  const codeInput = useRef<HTMLInputElement>(null);

  const normalized = normalizePhone(phone);
  const problem = phoneProblem(phone);
  const showProblem = problem !== null && (phoneBlurred ? phone !== '' : SHOWN_WHILE_TYPING.includes(problem));
  const secondsLeft = Math.max(0, Math.ceil((cooldownUntil - now) / 1000));

  useEffect(() => {
    if (secondsLeft <= 0) return;
    const timer = setInterval(() => setNow(Date.now()), 500);
    return () => clearInterval(timer);
  }, [secondsLeft]);

  const sendCode = async (ticket: string) => {
    setCaptchaOpen(false);
    setSending(true);
    store.getState().setCaptcha(ticket);
    try {
      const sent = await api.post('/auth/api/auth/getAuthCode', { phone: normalized });
      setCooldownUntil(Date.now() + sent.cooldownSeconds * 1000);
      setNow(Date.now());
      showToast('success', t('codeSent', { phone: maskPhone(normalized) }));
      codeInput.current?.focus();
      // The demo outbox sends no text: the code comes back to this request only (docs/security.md).
      if (demoOutbox) setDemoCode(sent.demoCode ?? null);
    } catch {
      // spec §8: the client has shown the server's reason (wait, limit reached...).
    } finally {
      setSending(false);
    }
  };

  const submit = async () => {
    if (problem) {
      setPhoneBlurred(true);
      showToast('warn', t(`phoneProblem.${problem}`));
      return;
    }
    if (!/^\d{6}$/.test(code)) {
      showToast('warn', t('codeProblem'));
      codeInput.current?.focus();
      return;
    }
    if (!agreed) {
      showToast('warn', t('mustAgree'));
      return;
    }
    setLoggingIn(true);
    try {
      const result = await api.login({ phone: normalized, code });
      if (!result) return;
      const session = await signIn('token', { token: result.token, redirect: false });
      if (!session?.ok) {
        showToast('error', t('sessionFailed'));
        return;
      }
      const state = store.getState();
      state.setUser({ phone: normalized, token: result.token });
      // spec §4: load the profile; then bind the user to the channel's brand (DESIGN §5, first visit after login).
      const [profile] = await Promise.allSettled([
        api.post('/market/api/userAttribute/queryByUserUuid'),
        api.post('/user/api/thirdAccount/brandChannel', { brandName }),
      ]);
      if (profile.status === 'fulfilled') state.setUserInfo(profile.value);
      // A full navigation: every page the client router cached before the session existed (including "this page →
      // /login" redirects) is stale now. The 'welcome' toast shows on the page we land on.
      deferToast('success', t('welcome'));
      // Checked again here, where the browser navigates: only a path of this site, whoever rendered the form.
      window.location.replace(safeRedirect(redirectTo));
    } finally {
      setLoggingIn(false);
    }
  };

  // The captcha sheet sits outside the <form>: its own Enter (the question fallback) must not submit the login.
  return (
    <>
      <form
        className="flex flex-col gap-5"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <div className="flex flex-col gap-1.5">
          <label htmlFor="login-phone" className="text-sm font-medium text-neutral-700">
            {t('phone')}
          </label>
          <input
            id="login-phone"
            name="phone"
            type="tel"
            inputMode="numeric"
            autoComplete="tel-national"
            placeholder={t('phonePlaceholder')}
            value={phone}
            maxLength={16}
            onChange={(event) => setPhone(event.target.value)}
            onBlur={() => setPhoneBlurred(true)}
            aria-invalid={showProblem || undefined}
            aria-describedby={showProblem ? 'login-phone-problem' : undefined}
            className="h-12 rounded-xl border border-black/10 bg-white px-4 text-base text-neutral-900 outline-none focus:border-skin-1 aria-invalid:border-red-500"
          />
          {showProblem && problem ? (
            <p id="login-phone-problem" role="alert" className="text-sm text-red-600">
              {t(`phoneProblem.${problem}`)}
            </p>
          ) : null}
        </div>

        <div className="flex flex-col gap-1.5">
          <label htmlFor="login-code" className="text-sm font-medium text-neutral-700">
            {t('code')}
          </label>
          <div className="flex gap-2">
            <input
              id="login-code"
              ref={codeInput}
              name="code"
              inputMode="numeric"
              autoComplete="one-time-code"
              placeholder={t('codePlaceholder')}
              value={code}
              onChange={(event) => setCode(event.target.value.replace(/\D/g, '').slice(0, 6))}
              className="h-12 min-w-0 flex-1 rounded-xl border border-black/10 bg-white px-4 text-base tracking-widest text-neutral-900 outline-none focus:border-skin-1"
            />
            <button
              type="button"
              disabled={problem !== null || secondsLeft > 0 || sending}
              onClick={() => setCaptchaOpen(true)}
              className="h-12 shrink-0 rounded-xl border border-skin-1 px-4 text-sm font-medium text-skin-1 disabled:border-black/10 disabled:text-neutral-400"
            >
              {sending ? t('sending') : secondsLeft > 0 ? t('resendIn', { seconds: secondsLeft }) : t('getCode')}
            </button>
          </div>
          {demoCode ? (
            <p data-testid="demo-code" className="rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-900">
              {t('demoOutbox', { code: demoCode })}
            </p>
          ) : null}
        </div>

        <TermsConsent
          checked={agreed}
          onChange={setAgreed}
          agree={t('agree')}
          and={t('and')}
          terms={[
            { href: '/agreement/privacy', label: t('privacy') },
            { href: '/agreement/salesStrategy', label: t('salesStrategy') },
          ]}
        />

        <Button type="primary" htmlType="submit" loading={loggingIn} className="w-full">
          {t('submit')}
        </Button>
      </form>
      {captchaOpen ? <SliderCaptcha onSolved={(ticket) => void sendCode(ticket)} onClose={() => setCaptchaOpen(false)} /> : null}
    </>
  );
}
