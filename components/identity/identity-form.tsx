'use client';

import { useId, useState, type FormEvent } from 'react';
import { useRouter } from 'next/navigation';
import { useTranslations } from 'use-intl';
import { useApi } from '@/components/shell/api-provider';
import { dismissToasts } from '@/components/ui/toast';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { BusinessError } from '@/lib/client/api-client';
import { normaliseResidentId, residentIdProblem } from '@/lib/format/resident-id';
import { dayIn } from '@/lib/channel/identity-policy';
import { IdentityState, type MaskedIdentity } from './identity-state';
import type { IdentityConsent } from '@/lib/page/identity-consent';

/** The verification call (docs/api.md, issue 33). Named here once: the journey test watches for it. */
export const VERIFY_PATH = '/market/api/identity/verify' as const;

type Field = 'name' | 'idNumber' | 'consentVersion';
type Errors = Partial<Record<Field | 'form', string>>;

/** What verify (and status) answer: the masked forms only (issue 33). */
type VerifiedData = { verified: boolean; maskedName: string | null; maskedIdNumber: string | null; verifiedAt: string | null };

const FIELDS: readonly Field[] = ['name', 'idNumber', 'consentVersion'];

/** ID numbers are 18 characters; the buyer may type them in groups with spaces (or dashes) as printed on some cards. */
const ID_INPUT_MAX = 24;

/**
 * The verification form of /mine/identity (issue 33): legal name, resident ID number, the consent and Verify. The
 * number's shape and check digit (GB 11643) are checked here before any call, so a typo is told at once, in words,
 * under the field, and nothing leaves the browser. The server checks all again; its refusals land where they belong:
 * a field's (400 `data.field`, or a schema's `field: why`) under that field, an ID number verified on another account
 * (409 identityInUse: the owner never named) under the number, the rest (mismatch, the vendor not answering, too many
 * tries) as the form's error. The API client has toasted the message as well; shown in place, the toast goes.
 */
export function IdentityForm({ consent, back, timeZone }: { consent: IdentityConsent; back: string; timeZone: string }) {
  const t = useTranslations('identity');
  const api = useApi();
  const router = useRouter();
  const ids = useId();
  const [name, setName] = useState('');
  const [idNumber, setIdNumber] = useState('');
  const [agreed, setAgreed] = useState(false);
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<Errors>({});
  const [verified, setVerified] = useState<MaskedIdentity | null>(null);

  if (verified) {
    return (
      <IdentityState
        identity={verified}
        back={back}
        labels={{ verified: t('verified'), verifiedOn: t('verifiedOn', { date: verified.verifiedOn }), back: t('back') }}
      />
    );
  }

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const legalName = name.trim();
    const number = normaliseResidentId(idNumber);
    const found: Errors = {};
    if (!legalName) found.name = t('nameMissing');
    const problem = residentIdProblem(number, dayIn(timeZone, new Date()));
    if (problem) found.idNumber = t(`idNumberProblem.${problem}`);
    if (!agreed) found.consentVersion = t('consentMissing');
    setErrors(found);
    if (Object.keys(found).length > 0) return;

    setBusy(true);
    try {
      const data: VerifiedData = await api.post(VERIFY_PATH, { name: legalName, idNumber: number, consentVersion: consent.version });
      if (data.maskedName && data.maskedIdNumber) {
        setVerified({
          maskedName: data.maskedName,
          maskedIdNumber: data.maskedIdNumber,
          verifiedOn: data.verifiedAt ? dayIn(timeZone, new Date(data.verifiedAt)) : dayIn(timeZone, new Date()),
        });
        // The raw values go with the form: nothing of them stays in the page's memory once verified.
        setName('');
        setIdNumber('');
      } else router.refresh();
    } catch (error) {
      if (error instanceof BusinessError) {
        const placed = placeRefusal(error, t);
        if (placed === 'verified') router.refresh();
        else if (placed) {
          dismissToasts();
          setErrors(placed);
        }
      }
    } finally {
      setBusy(false);
    }
  };

  const describedBy = (field: Field) => (errors[field] ? `${ids}-${field}-error` : undefined);
  const inputClass =
    'h-11 w-full rounded-lg border bg-white px-3 text-base text-skin-1 outline-none focus:border-(--skin-color1) aria-invalid:border-red-500';

  return (
    <form noValidate onSubmit={(event) => void submit(event)} className="flex flex-col gap-4" data-testid="identity-form">
      <Card className="flex flex-col gap-4 p-4">
        <div className="flex flex-col gap-1.5">
          <label htmlFor={`${ids}-name`} className="text-sm font-medium text-skin-1">
            {t('name')}
          </label>
          <input
            id={`${ids}-name`}
            name="legalName"
            value={name}
            onChange={(event) => setName(event.target.value)}
            placeholder={t('namePlaceholder')}
            autoComplete="off"
            spellCheck={false}
            maxLength={50}
            aria-invalid={errors.name ? true : undefined}
            aria-describedby={describedBy('name')}
            className={`${inputClass} border-black/10`}
            data-testid="identity-name"
          />
          <FieldError id={`${ids}-name-error`} message={errors.name} testId="identity-name-error" />
        </div>
        <div className="flex flex-col gap-1.5">
          <label htmlFor={`${ids}-id`} className="text-sm font-medium text-skin-1">
            {t('idNumber')}
          </label>
          <input
            id={`${ids}-id`}
            name="residentId"
            value={idNumber}
            onChange={(event) => setIdNumber(event.target.value)}
            placeholder={t('idNumberPlaceholder')}
            // Text, not numeric: the last character may be X, which a phone's number pad does not have
            // (docs/decisions.md, "The ID number field").
            inputMode="text"
            autoCapitalize="characters"
            autoComplete="off"
            autoCorrect="off"
            spellCheck={false}
            maxLength={ID_INPUT_MAX}
            aria-invalid={errors.idNumber ? true : undefined}
            aria-describedby={describedBy('idNumber')}
            className={`${inputClass} border-black/10 font-mono tracking-wide placeholder:font-sans placeholder:tracking-normal`}
            data-testid="identity-id-number"
          />
          <FieldError id={`${ids}-idNumber-error`} message={errors.idNumber} testId="identity-id-number-error" />
        </div>
      </Card>

      <Card as="section" className="flex flex-col gap-2 p-4" aria-labelledby={`${ids}-consent`}>
        <h2 id={`${ids}-consent`} className="text-sm font-medium text-skin-1">
          {consent.title}
        </h2>
        {/* Scrolls on its own: focusable and named, so a keyboard or screen-reader user can read all of it (WCAG 2.1.1). */}
        <div
          className="flex max-h-48 flex-col gap-1.5 overflow-y-auto rounded text-xs leading-relaxed text-neutral-600 focus-visible:outline focus-visible:outline-2 focus-visible:outline-skin-1"
          data-testid="identity-consent-text"
          role="region"
          aria-labelledby={`${ids}-consent`}
          tabIndex={0}
        >
          {consent.paragraphs.map((paragraph) => (
            <p key={paragraph}>{paragraph}</p>
          ))}
        </div>
        <label className="flex items-start gap-2 text-sm leading-snug text-neutral-600">
          <input
            type="checkbox"
            checked={agreed}
            onChange={(event) => setAgreed(event.target.checked)}
            aria-invalid={errors.consentVersion ? true : undefined}
            aria-describedby={describedBy('consentVersion')}
            className="mt-0.5 size-4 shrink-0 accent-(--skin-color1)"
            data-testid="identity-consent"
          />
          <span>{t('consentAgree')}</span>
        </label>
        <FieldError id={`${ids}-consentVersion-error`} message={errors.consentVersion} testId="identity-consent-error" />
      </Card>

      {errors.form ? (
        <p role="alert" className="rounded-xl bg-red-50 p-3 text-sm leading-relaxed text-red-800" data-testid="identity-form-error">
          {errors.form}
        </p>
      ) : null}

      <Button type="primary" htmlType="submit" loading={busy} className="w-full">
        {t('verify')}
      </Button>
    </form>
  );
}

function FieldError({ id, message, testId }: { id: string; message: string | undefined; testId: string }) {
  return message ? (
    <p id={id} role="alert" className="text-sm text-red-600" data-testid={testId}>
      {message}
    </p>
  ) : null;
}

type Translate = (key: 'inUse' | 'mismatch' | 'unavailable') => string;

/**
 * Where a refusal of verify is shown (docs/api.md, "identity/verify"): the field it names, or the form. 'verified':
 * the account was verified meanwhile (another tab), so the page is read again and shows it. null: the client's own
 * toast is all (busy, logged out).
 */
export function placeRefusal(error: BusinessError, t: Translate): Errors | 'verified' | null {
  const data = (typeof error.data === 'object' && error.data !== null ? error.data : {}) as { field?: unknown; reason?: unknown };
  switch (error.code) {
    case 400: {
      if (typeof data.field === 'string' && (FIELDS as readonly string[]).includes(data.field)) return { [data.field]: error.message };
      // A schema's refusal reads `field: why; field: why` (docs/api.md, "Errors").
      const placed: Errors = {};
      for (const part of error.message.split('; ')) {
        const field = FIELDS.find((f) => part.startsWith(`${f}: `));
        if (field) placed[field] = part.slice(field.length + 2);
      }
      return Object.keys(placed).length > 0 ? placed : { form: error.message };
    }
    case 409:
      if (data.reason === 'identityInUse') return { idNumber: t('inUse') };
      // The vendor has no record of the number (issue 33): its own words, under the number the server names.
      if (typeof data.field === 'string' && (FIELDS as readonly string[]).includes(data.field)) return { [data.field]: error.message };
      if (data.reason === 'identityMismatch') return { form: t('mismatch') };
      if (data.reason === 'alreadyVerified') return 'verified';
      return { form: error.message };
    case 503:
      // The server's words say whether to try again soon or that the store cannot check now (docs/api.md).
      return { form: error.message || t('unavailable') };
    case 429:
      return { form: error.message };
    case 401:
    case 500:
    case 1001:
      return null;
    default:
      return error.message ? { form: error.message } : null;
  }
}
