'use client';

import { useState, type FormEvent, type ReactNode } from 'react';
import type { ChannelSettingsView } from '@/lib/operator/channel-procedures';
import { consoleCall, type ConsoleAnswer } from './console-call';
import { ATTRIBUTES, attributeWord, type LabelChoice } from './channel-create-form';
import { CheckGroup, fieldErrors, SaveRow, SelectField, TextArea, TextField, type FieldErrors } from './channel-form';
import type { ChanWords } from './channel-words';
import { ChannelBuyerRules, type BuyerRulesWords } from './channel-buyer-rules';
import { ChannelWechat, type WechatWords } from './channel-wechat';

type SavePath =
  | '/ops/api/channel/saveProfile'
  | '/ops/api/channel/saveTexts'
  | '/ops/api/channel/saveCustomerService'
  | '/ops/api/channel/saveSmsSender'
  | '/ops/api/channel/savePayment'
  | '/ops/api/channel/saveCompliance'
  | '/ops/api/channel/saveIdentityPolicy'
  | '/ops/api/channel/saveRiskPolicy'
  | '/ops/api/channel/saveHoldingPeriod'
  | '/ops/api/channel/saveWechatAccount';

export type ProviderChoice = { name: string; label: string; up: string; down: string; run: boolean };

export type Common = { words: ChanWords; fieldWords: Record<string, string>; locale: string; readOnly: boolean; channel: string };

/**
 * One section of the Settings tab: its own form and save (issue 31: "each section saves on its own"), the refusals
 * under the fields they name and nothing changed, or "saved". Read-only for support: the fields disabled, no button.
 */
export function Section({
  id,
  title,
  intro,
  common,
  build,
  path,
  children,
}: {
  id: string;
  title: string;
  intro?: ReactNode;
  common: Common;
  path: SavePath;
  build: (form: FormData) => Record<string, unknown>;
  children: (errors: FieldErrors) => ReactNode;
}) {
  const [errors, setErrors] = useState<FieldErrors>({});
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState<string | null>(null);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (common.readOnly) return;
    const body = { channel: common.channel, ...build(new FormData(event.currentTarget)) };
    setBusy(true);
    setErrors({});
    setDone(null);
    // The body is built from this section's fields; the server's schema is the judge of each (typed loosely here).
    const answer = (await consoleCall(path, body as never, common.locale)) as ConsoleAnswer<SavePath>;
    setBusy(false);
    if (answer.ok) setDone(common.words.saved);
    else setErrors(fieldErrors(answer, common.fieldWords));
  }

  return (
    <section aria-labelledby={`${id}-title`} className="rounded-lg border border-gray-200 bg-white p-6" data-section={id}>
      <h2 id={`${id}-title`} className="text-lg font-semibold text-gray-900">
        {title}
      </h2>
      {intro ? <p className="mt-1 text-sm text-gray-600">{intro}</p> : null}
      <form onSubmit={submit} noValidate className="mt-4 space-y-4">
        {children(errors)}
        {common.readOnly ? null : (
          <SaveRow label={common.words.save} busy={busy} busyLabel={common.words.saving} done={done} error={errors['']} />
        )}
      </form>
    </section>
  );
}

const text = (form: FormData, name: string) => String(form.get(name) ?? '');

/** The Settings tab of a channel (issue 31). */
export function ChannelSettings({
  view,
  words,
  fieldWords,
  locale,
  readOnly,
  labelChoices,
  providers,
  ruleWords,
  wechatWords,
}: {
  view: ChannelSettingsView;
  words: ChanWords;
  fieldWords: Record<string, string>;
  locale: string;
  readOnly: boolean;
  labelChoices: readonly LabelChoice[];
  providers: readonly ProviderChoice[];
  ruleWords: BuyerRulesWords;
  /** issue 36: the WeChat share card's section. */
  wechatWords: WechatWords;
}) {
  const common: Common = { words, fieldWords, locale, readOnly, channel: view.key };
  const w = words;
  const p = view.profile;
  const attributesOn = ATTRIBUTES.filter((a) => p.attributes[a]);
  return (
    <div className="grid gap-6 xl:grid-cols-2">
      {readOnly ? (
        <p role="note" className="rounded-md border border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-900 xl:col-span-2">
          {w.readOnly}
        </p>
      ) : null}
      <Section
        id="profile"
        title={w.profile}
        common={common}
        path="/ops/api/channel/saveProfile"
        build={(form) => {
          const choice = text(form, 'locale');
          return {
            name: text(form, 'name'),
            brandName: text(form, 'brandName'),
            locale: choice === 'en' || choice === 'zh-CN' ? choice : null,
            timeZone: text(form, 'timeZone'),
            labels: form.getAll('labels').map(Number),
            attributes: Object.fromEntries(form.getAll('attributes').map((a) => [String(a), true])),
            appScheme: text(form, 'appScheme'),
            appDownloadUrl: text(form, 'appDownloadUrl'),
          };
        }}
      >
        {(e) => (
          <>
            <div className="grid gap-4 md:grid-cols-2">
              <TextField id="name" name="name" label={w.name} error={e.name} defaultValue={p.name} disabled={readOnly} maxLength={60} />
              <TextField
                id="brandName"
                name="brandName"
                label={w.brandName}
                hint={w.brandNameHint}
                error={e.brandName}
                defaultValue={p.brandName}
                disabled={readOnly}
                maxLength={60}
              />
              <SelectField
                id="locale"
                name="locale"
                label={w.locale}
                error={e.locale}
                defaultValue={p.locale ?? ''}
                disabled={readOnly}
                options={[
                  { value: '', label: w.localeAuto },
                  { value: 'zh-CN', label: w.localeZh },
                  { value: 'en', label: w.localeEn },
                ]}
              />
              <TextField
                id="timeZone"
                name="timeZone"
                label={w.timeZone}
                hint={w.timeZoneHint}
                error={e.timeZone}
                defaultValue={p.timeZone}
                disabled={readOnly}
              />
            </div>
            <CheckGroup
              name="labels"
              legend={w.labels}
              hint={w.labelsHint}
              error={e.labels}
              options={labelChoices}
              checked={p.labels.map(String)}
              disabled={readOnly}
            />
            <CheckGroup
              name="attributes"
              legend={w.attributes}
              error={e.attributes}
              options={ATTRIBUTES.map((a) => ({ value: a, label: w[attributeWord(a)] }))}
              checked={attributesOn}
              disabled={readOnly}
            />
            <div className="grid gap-4 md:grid-cols-2">
              <TextField
                id="appScheme"
                name="appScheme"
                label={w.appScheme}
                hint={w.appSchemeHint}
                error={e.appScheme}
                defaultValue={p.appScheme}
                disabled={readOnly}
                maxLength={100}
              />
              <TextField
                id="appDownloadUrl"
                name="appDownloadUrl"
                type="url"
                label={w.appDownloadUrl}
                hint={w.appDownloadUrlHint}
                error={e.appDownloadUrl}
                defaultValue={p.appDownloadUrl}
                disabled={readOnly}
              />
            </div>
          </>
        )}
      </Section>

      <Section
        id="compliance"
        title={w.compliance}
        intro={w.complianceIntro}
        common={common}
        path="/ops/api/channel/saveCompliance"
        build={(form) => ({
          icpFiling: text(form, 'icpFiling'),
          publicSecurityFiling: text(form, 'publicSecurityFiling'),
          blockchainFiling: text(form, 'blockchainFiling'),
        })}
      >
        {(e) =>
          (['icpFiling', 'publicSecurityFiling', 'blockchainFiling'] as const).map((f) => (
            <TextField
              key={f}
              id={f}
              name={f}
              label={w[f]}
              hint={w[`${f}Hint`]}
              error={e[f]}
              defaultValue={view.compliance[f]}
              disabled={readOnly}
              maxLength={40}
            />
          ))
        }
      </Section>

      <Section
        id="texts"
        title={w.texts}
        intro={w.textsIntro}
        common={common}
        path="/ops/api/channel/saveTexts"
        build={(form) => ({
          marketText: text(form, 'marketText'),
          buyText: text(form, 'buyText'),
          exchangeText: text(form, 'exchangeText'),
          privacyText: text(form, 'privacyText'),
          salesStrategyText: text(form, 'salesStrategyText'),
        })}
      >
        {(e) => (
          <>
            {(['marketText', 'buyText', 'exchangeText'] as const).map((f) => (
              <TextArea
                key={f}
                id={f}
                name={f}
                label={w[f]}
                error={e[f]}
                defaultValue={view.texts[f]}
                disabled={readOnly}
                rows={2}
                maxLength={1000}
              />
            ))}
            {(['privacyText', 'salesStrategyText'] as const).map((f) => (
              <div key={f} className="space-y-1">
                <TextArea
                  id={f}
                  name={f}
                  label={w[f]}
                  hint={<span data-testid={`${f}-source`}>{view.texts[f] ? w.ownText : w.usingTemplate}</span>}
                  error={e[f]}
                  defaultValue={view.texts[f]}
                  disabled={readOnly}
                  rows={5}
                  maxLength={8000}
                />
                <details className="text-sm text-gray-700">
                  <summary className="cursor-pointer text-blue-800">{w.showTemplate}</summary>
                  <pre className="mt-2 max-h-60 overflow-auto rounded bg-gray-50 p-3 font-sans whitespace-pre-wrap">
                    {view.defaultAgreements[f]}
                  </pre>
                </details>
              </div>
            ))}
          </>
        )}
      </Section>

      <div className="space-y-6">
        <Section
          id="service"
          title={w.service}
          intro={w.serviceIntro}
          common={common}
          path="/ops/api/channel/saveCustomerService"
          build={(form) => ({ phone: text(form, 'phone'), hours: text(form, 'hours'), email: text(form, 'email'), url: text(form, 'url') })}
        >
          {(e) => (
            <div className="grid gap-4 md:grid-cols-2">
              <TextField
                id="phone"
                name="phone"
                type="tel"
                label={w.phone}
                error={e.phone}
                defaultValue={view.customerService.phone}
                disabled={readOnly}
              />
              <TextField
                id="hours"
                name="hours"
                label={w.hours}
                hint={w.hoursHint}
                error={e.hours}
                defaultValue={view.customerService.hours}
                disabled={readOnly}
              />
              <TextField
                id="email"
                name="email"
                type="email"
                label={w.email}
                error={e.email}
                defaultValue={view.customerService.email}
                disabled={readOnly}
              />
              <TextField
                id="url"
                name="url"
                type="url"
                label={w.url}
                hint={w.urlHint}
                error={e.url}
                defaultValue={view.customerService.url}
                disabled={readOnly}
              />
            </div>
          )}
        </Section>

        <Section
          id="sms"
          title={w.sms}
          intro={w.smsIntro}
          common={common}
          path="/ops/api/channel/saveSmsSender"
          build={(form) => ({
            smsSignName: text(form, 'smsSignName').trim() || null,
            smsTemplateId: text(form, 'smsTemplateId').trim() || null,
          })}
        >
          {(e) => (
            <div className="grid gap-4 md:grid-cols-2">
              <TextField
                id="smsSignName"
                name="smsSignName"
                label={w.smsSignName}
                error={e.smsSignName}
                defaultValue={view.sms.smsSignName}
                disabled={readOnly}
              />
              <TextField
                id="smsTemplateId"
                name="smsTemplateId"
                label={w.smsTemplateId}
                hint={w.smsTemplateIdHint}
                error={e.smsTemplateId}
                defaultValue={view.sms.smsTemplateId}
                disabled={readOnly}
              />
            </div>
          )}
        </Section>

        <PaymentSection common={common} chosen={view.payment.paymentProviders} providers={providers} />
      </div>

      <ChannelBuyerRules
        common={common}
        identityPolicy={view.identityPolicy}
        riskPolicy={view.riskPolicy}
        gifting={view.gifting}
        words={ruleWords}
      />
      <ChannelWechat common={common} wechat={view.wechat} w={wechatWords} />
    </div>
  );
}

/** The payment providers: which the channel offers, in order (a sensitive write, issue 31). */
function PaymentSection({
  common,
  chosen,
  providers,
}: {
  common: Common;
  chosen: readonly string[];
  providers: readonly ProviderChoice[];
}) {
  const w = common.words;
  // The channel's own order first, then the rest of the built-in providers.
  const [order, setOrder] = useState<string[]>(() => [
    ...chosen.filter((n) => providers.some((p) => p.name === n)),
    ...providers.map((p) => p.name).filter((n) => !chosen.includes(n)),
  ]);
  const move = (i: number, by: -1 | 1) =>
    setOrder((list) => {
      const next = [...list];
      const [item] = next.splice(i, 1);
      next.splice(i + by, 0, item!);
      return next;
    });
  return (
    <Section
      id="payment"
      title={w.payment}
      intro={
        <>
          {w.paymentIntro} <span className="font-medium">{w.paymentReauth}</span>
        </>
      }
      common={common}
      path="/ops/api/channel/savePayment"
      // The ticked providers in the order shown (FormData keeps the document order).
      build={(form) => ({ paymentProviders: form.getAll('paymentProviders').map(String) })}
    >
      {(e) => (
        <fieldset aria-describedby={e.paymentProviders ? 'paymentProviders-error' : undefined}>
          <legend className="sr-only">{w.payment}</legend>
          <ol className="divide-y divide-gray-100 rounded-md border border-gray-200">
            {order.map((name, i) => {
              const p = providers.find((x) => x.name === name)!;
              return (
                <li key={name} className="flex items-center gap-3 px-3 py-2">
                  <label className="flex flex-1 items-center gap-2 text-sm text-gray-900">
                    <input
                      type="checkbox"
                      name="paymentProviders"
                      value={name}
                      defaultChecked={chosen.includes(name)}
                      disabled={common.readOnly}
                      className="size-4"
                    />
                    {p.label}
                    {p.run ? null : <span className="text-xs text-gray-600">({w.providerNotRun})</span>}
                  </label>
                  {common.readOnly ? null : (
                    <span className="flex gap-1">
                      <button
                        type="button"
                        aria-label={p.up}
                        disabled={i === 0}
                        onClick={() => move(i, -1)}
                        className="rounded border border-gray-300 px-2 text-sm disabled:opacity-40"
                      >
                        ↑
                      </button>
                      <button
                        type="button"
                        aria-label={p.down}
                        disabled={i === order.length - 1}
                        onClick={() => move(i, 1)}
                        className="rounded border border-gray-300 px-2 text-sm disabled:opacity-40"
                      >
                        ↓
                      </button>
                    </span>
                  )}
                </li>
              );
            })}
          </ol>
          {e.paymentProviders ? (
            <p id="paymentProviders-error" role="alert" className="mt-1 text-sm text-red-700">
              {e.paymentProviders}
            </p>
          ) : null}
        </fieldset>
      )}
    </Section>
  );
}
