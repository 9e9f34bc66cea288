'use client';

import { useState } from 'react';
import type { ChannelSettingsView } from '@/lib/operator/channel-procedures';
import type en from '@/lib/i18n/messages/en';
import { FieldFrame, SelectField } from './channel-form';
import { Section, type Common } from './channel-settings';

/**
 * The Settings tab's buyer rules (issue 33): "Buyers' identity" (real-name before each action, the store's minimum
 * age, blind boxes' minimum age) and "Risk at order time" (the unpaid-order pause, the captcha for higher-risk buys).
 * Each saves on its own, as every section of the tab does, in one audited write.
 */

type IdentityWords = Record<keyof (typeof en)['ops']['identityPolicy'], string>;
type RiskWords = Record<keyof (typeof en)['ops']['riskPolicy'], string>;
type GiftingWords = Record<keyof (typeof en)['ops']['giftingPolicy'], string>;
export type BuyerRulesWords = { identity: IdentityWords; risk: RiskWords; gifting: GiftingWords };

const ACTIONS = ['buy', 'receive', 'exchange', 'chainUp'] as const;
type Action = (typeof ACTIONS)[number];

export function ChannelBuyerRules({
  common,
  identityPolicy,
  riskPolicy,
  gifting,
  words,
}: {
  common: Common;
  identityPolicy: ChannelSettingsView['identityPolicy'];
  riskPolicy: ChannelSettingsView['riskPolicy'];
  gifting: ChannelSettingsView['gifting'];
  words: BuyerRulesWords;
}) {
  return (
    <>
      <IdentitySection common={common} policy={identityPolicy} w={words.identity} />
      <RiskSection common={common} policy={riskPolicy} w={words.risk} />
      <GiftingSection common={common} gifting={gifting} w={words.gifting} />
    </>
  );
}

function IdentitySection({ common, policy, w }: { common: Common; policy: ChannelSettingsView['identityPolicy']; w: IdentityWords }) {
  const [realName, setRealName] = useState<Record<Action, boolean>>(policy.realName);
  const [minAge, setMinAge] = useState<string>(policy.minAge === null ? '' : String(policy.minAge));
  // issue 33: a minimum age turns real-name on for every action it guards, so the box shows on and cannot be cleared.
  const guarded = minAge !== '';
  return (
    <Section
      id="identity-policy"
      title={w.title}
      intro={w.intro}
      common={common}
      path="/ops/api/channel/saveIdentityPolicy"
      build={(form) => {
        const blindBox = String(form.get('blindBoxMinAge') ?? '');
        return {
          realName: Object.fromEntries(ACTIONS.map((a) => [a, realName[a] || guarded])),
          minAge: guarded ? Number(minAge) : null,
          blindBoxMinAge: blindBox === '' ? null : Number(blindBox),
        };
      }}
    >
      {(e) => (
        <>
          <fieldset className="space-y-2" aria-describedby={guarded ? 'realName-guarded' : undefined}>
            <legend className="text-sm font-medium text-gray-800">{w.realName}</legend>
            <div className="flex flex-wrap gap-x-5 gap-y-2">
              {ACTIONS.map((a) => (
                <label key={a} className="inline-flex items-center gap-2 text-sm text-gray-900">
                  <input
                    type="checkbox"
                    name={`realName.${a}`}
                    checked={realName[a] || guarded}
                    disabled={common.readOnly || guarded}
                    onChange={(event) => setRealName((now) => ({ ...now, [a]: event.target.checked }))}
                    className="size-4 rounded border-gray-400 text-blue-700"
                  />
                  {w[a]}
                </label>
              ))}
            </div>
            {guarded ? (
              <p id="realName-guarded" className="text-sm text-gray-600">
                {w.guarded}
              </p>
            ) : null}
            {e.realName ? (
              <p role="alert" className="text-sm text-red-700" data-field-error="realName">
                {e.realName}
              </p>
            ) : null}
          </fieldset>
          <div className="grid gap-4 md:grid-cols-2">
            <FieldFrame id="minAge" label={w.minAge} hint={w.minAgeHint} error={e.minAge}>
              <select
                id="minAge"
                name="minAge"
                value={minAge}
                onChange={(event) => setMinAge(event.target.value)}
                disabled={common.readOnly}
                aria-invalid={e.minAge ? true : undefined}
                aria-describedby={['minAge-hint', e.minAge ? 'minAge-error' : null].filter(Boolean).join(' ')}
                className="block w-full rounded-md border border-gray-300 bg-white px-3 py-2 text-base text-gray-900 shadow-sm focus:border-blue-600 focus:ring-2 focus:ring-blue-600/30 focus:outline-none disabled:bg-gray-50 disabled:text-gray-700"
              >
                <option value="">{w.none}</option>
                <option value="14">{w.age14}</option>
                <option value="16">{w.age16}</option>
                <option value="18">{w.age18}</option>
              </select>
            </FieldFrame>
            <SelectField
              id="blindBoxMinAge"
              name="blindBoxMinAge"
              label={w.blindBoxMinAge}
              hint={w.blindBoxMinAgeHint}
              error={e.blindBoxMinAge}
              defaultValue={policy.blindBoxMinAge === null ? '' : String(policy.blindBoxMinAge)}
              disabled={common.readOnly}
              options={[
                { value: '', label: w.none },
                { value: '18', label: w.age18 },
              ]}
            />
          </div>
        </>
      )}
    </Section>
  );
}

/** A whole number as typed, or the text itself for the server to refuse by name (never a silent 0). */
function wholeOrText(value: FormDataEntryValue | null): number | string {
  const typed = String(value ?? '').trim();
  return /^\d+$/.test(typed) ? Number(typed) : typed;
}

const UNPAID = ['limit', 'withinHours', 'blockHours'] as const;
const BOUNDS: Record<(typeof UNPAID)[number], { min: number; max: number }> = {
  limit: { min: 0, max: 20 },
  withinHours: { min: 1, max: 168 },
  blockHours: { min: 1, max: 168 },
};

function RiskSection({ common, policy, w }: { common: Common; policy: ChannelSettingsView['riskPolicy']; w: RiskWords }) {
  return (
    <Section
      id="risk-policy"
      title={w.title}
      intro={w.intro}
      common={common}
      path="/ops/api/channel/saveRiskPolicy"
      build={(form) => ({
        unpaid: Object.fromEntries(UNPAID.map((f) => [f, wholeOrText(form.get(`unpaid.${f}`))])),
        captcha: form.get('captcha') === 'on',
      })}
    >
      {(e) => (
        <>
          {/* Side by side where the section is wide; stacked in the half-width column of a wide screen, where the labels would wrap unevenly. */}
          <div className="grid gap-4 md:grid-cols-3 xl:grid-cols-1 2xl:grid-cols-3">
            {UNPAID.map((f) => {
              const id = `unpaid-${f}`;
              const error = e[`unpaid.${f}`] ?? (f === 'limit' ? e.unpaid : undefined);
              return (
                <FieldFrame key={f} id={id} label={w[f]} hint={w[`${f}Hint`]} error={error}>
                  <input
                    id={id}
                    name={`unpaid.${f}`}
                    type="number"
                    inputMode="numeric"
                    min={BOUNDS[f].min}
                    max={BOUNDS[f].max}
                    step={1}
                    defaultValue={policy.unpaid[f]}
                    disabled={common.readOnly}
                    aria-invalid={error ? true : undefined}
                    aria-describedby={[`${id}-hint`, error ? `${id}-error` : null].filter(Boolean).join(' ')}
                    className={`block w-full rounded-md border bg-white px-3 py-2 text-base text-gray-900 shadow-sm focus:ring-2 focus:outline-none disabled:bg-gray-50 disabled:text-gray-700 ${
                      error
                        ? 'border-red-600 focus:border-red-600 focus:ring-red-600/30'
                        : 'border-gray-300 focus:border-blue-600 focus:ring-blue-600/30'
                    }`}
                  />
                </FieldFrame>
              );
            })}
          </div>
          <label className="flex items-start gap-2 text-sm text-gray-900">
            <input
              type="checkbox"
              name="captcha"
              defaultChecked={policy.captcha}
              disabled={common.readOnly}
              className="mt-0.5 size-4 rounded border-gray-400 text-blue-700"
            />
            {w.captcha}
          </label>
          {e.captcha ? (
            <p role="alert" className="text-sm text-red-700" data-field-error="captcha">
              {e.captcha}
            </p>
          ) : null}
        </>
      )}
    </Section>
  );
}

/** Gifts between buyers (issue 36, docs/gifting.md): the holding period before a collectible may be given. */
function GiftingSection({ common, gifting, w }: { common: Common; gifting: ChannelSettingsView['gifting']; w: GiftingWords }) {
  return (
    <Section
      id="gifting-policy"
      title={w.title}
      intro={w.intro}
      common={common}
      path="/ops/api/channel/saveHoldingPeriod"
      build={(form) => {
        // A negative number is sent as one, so the refusal names the range rather than the type.
        const typed = String(form.get('holdingHours') ?? '').trim();
        return { holdingHours: /^-?\d+$/.test(typed) ? Number(typed) : typed };
      }}
    >
      {(e) => (
        <FieldFrame id="gifting-holding-hours" label={w.holdingHours} hint={w.holdingHoursHint} error={e.holdingHours}>
          <input
            id="gifting-holding-hours"
            name="holdingHours"
            type="number"
            inputMode="numeric"
            min={0}
            max={8760}
            step={1}
            defaultValue={gifting.holdingHours}
            disabled={common.readOnly}
            aria-invalid={e.holdingHours ? true : undefined}
            aria-describedby={['gifting-holding-hours-hint', e.holdingHours ? 'gifting-holding-hours-error' : null]
              .filter(Boolean)
              .join(' ')}
            className={`block w-full max-w-48 rounded-md border bg-white px-3 py-2 text-base text-gray-900 shadow-sm focus:ring-2 focus:outline-none disabled:bg-gray-50 disabled:text-gray-700 ${
              e.holdingHours
                ? 'border-red-600 focus:border-red-600 focus:ring-red-600/30'
                : 'border-gray-300 focus:border-blue-600 focus:ring-blue-600/30'
            }`}
          />
        </FieldFrame>
      )}
    </Section>
  );
}
