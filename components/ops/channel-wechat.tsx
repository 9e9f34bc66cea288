'use client';

import type { ChannelSettingsView } from '@/lib/operator/channel-procedures';
import type en from '@/lib/i18n/messages/en';
import { TextField } from './channel-form';
import { Section, type Common } from './channel-settings';

/**
 * The Settings tab's WeChat share card (issue 36; docs/wechat.md): the official account (公众号) whose JS-SDK sets the
 * title, description, link and picture a page shows when shared in WeChat. The AppID is the channel's; the AppSecret
 * stays in the deployment's environment, so the section only says whether the deployment holds it.
 */
export type WechatWords = Record<keyof (typeof en)['ops']['wechatAccount'], string>;

export function ChannelWechat({ common, wechat, w }: { common: Common; wechat: ChannelSettingsView['wechat']; w: WechatWords }) {
  const state = wechat.appId === null ? w.stateNone : wechat.secretKnown ? w.stateOn : w.stateNoSecret;
  return (
    <Section
      id="wechat-account"
      title={w.title}
      intro={w.intro}
      common={common}
      path="/ops/api/channel/saveWechatAccount"
      build={(form) => {
        const typed = String(form.get('wechatAppId') ?? '').trim();
        return { wechatAppId: typed === '' ? null : typed };
      }}
    >
      {(e) => (
        <>
          <TextField
            id="wechatAppId"
            name="wechatAppId"
            label={w.appId}
            hint={w.appIdHint}
            error={e.wechatAppId}
            defaultValue={wechat.appId}
            disabled={common.readOnly}
            maxLength={18}
            placeholder="wx0123456789abcdef"
            autoComplete="off"
          />
          <p
            data-testid="wechat-account-state"
            className={`rounded-md px-3 py-2 text-sm ${
              wechat.appId !== null && !wechat.secretKnown ? 'bg-amber-50 text-amber-900' : 'bg-gray-50 text-gray-700'
            }`}
          >
            {state}
          </p>
        </>
      )}
    </Section>
  );
}
