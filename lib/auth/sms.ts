import 'server-only';
import type { Db } from '../db/client';
import { env as processEnv, type Env } from '../env';
import { aliyunSmsProvider } from './sms-aliyun';
import { tencentSmsProvider } from './sms-tencent';
import { smsOutbox } from '../db/schema';
import type { TemplateText } from './sms-carrier';

/**
 * Where verification texts go (issue on accounts; issue 18). SMS_PROVIDER picks one: `outbox` (the demo, sends nothing;
 * production refuses it, lib/env.ts), `aliyun` (./sms-aliyun.ts) or `tencent` (./sms-tencent.ts).
 */
export type SmsMessage = {
  channelId: number;
  phone: string;
  code: string;
  ttlMinutes: number;
  now: Date;
  /** The channel's own sign name and template at the carrier (channels.sms_sign_name, sms_template_id), when set. */
  sender?: { signName: string | null; templateId: string | null };
  /**
   * What the code is for (issue 36): a login code (the default) or a closing code, which a carrier sends under the
   * closing template (SMS_ALIYUN_CLOSE_TEMPLATE, SMS_TENCENT_CLOSE_TEMPLATE_ID), never the login's.
   */
  purpose?: 'login' | 'close';
};

export interface SmsProvider {
  readonly name: string;
  /**
   * Sends one code. A refusal (the carrier's limit for the number, a template not approved, no balance, no answer...)
   * throws an AppError the buyer can read (lib/auth/sms-carrier.ts), never a plain Error.
   */
  send(db: Db, message: SmsMessage): Promise<void>;
  /**
   * A real carrier's send of any approved template (issue 32: the refund's text, from ./sms-outbox.ts); the demo outbox
   * has none. Throws like `send`: a CarrierRefusedError (./sms-carrier.ts) for a refusal, an AppError for no answer.
   */
  sendTemplate?(text: TemplateText): Promise<void>;
  /**
   * True for the demo outbox only: no text is sent, so getAuthCode hands the code back to the caller who asked for it
   * (bound to that request, never readable by phone number: security review, finding 1).
   */
  readonly showsCodes: boolean;
}

/** The text of a code message; `code` is left out of what we keep (security review, finding 14). */
export function smsText(code: string, ttlMinutes: number, purpose: SmsMessage['purpose'] = 'login'): string {
  return purpose === 'close'
    ? `Your code to close your account is ${code}. It is valid for ${ttlMinutes} minutes. If you did not ask to close your account, ignore this text and do not share the code.`
    : `Your verification code is ${code}. It is valid for ${ttlMinutes} minutes. Do not share it with anyone.`;
}

/** The text as kept and logged: the code masked. */
export function keptSmsText(ttlMinutes: number, purpose: SmsMessage['purpose'] = 'login'): string {
  return smsText('******', ttlMinutes, purpose);
}

/** The demo provider: keeps each text (without its code) in the sms_outbox table and logs it; nothing leaves the machine. */
export const outboxProvider: SmsProvider = {
  name: 'outbox',
  showsCodes: true,
  async send(db, message) {
    const text = keptSmsText(message.ttlMinutes, message.purpose);
    await db.insert(smsOutbox).values({ channelId: message.channelId, phone: message.phone, text, createdAt: message.now });
    console.info(`[sms outbox] to ${message.phone.slice(0, 3)}****${message.phone.slice(-4)}: ${text}`);
  },
};

/** The provider SMS_PROVIDER names, with its settings from the environment (checked at start by lib/env.ts). */
export function smsProvider(name: Env['SMS_PROVIDER'], e: Env = processEnv()): SmsProvider {
  const required = (value: string | undefined, variable: string): string => {
    if (value === undefined) throw new Error(`${variable} is required with SMS_PROVIDER=${name}`);
    return value;
  };
  switch (name) {
    case 'outbox':
      return outboxProvider;
    case 'aliyun':
      return aliyunSmsProvider({
        accessKeyId: required(e.ALIYUN_SMS_ACCESS_KEY_ID, 'ALIYUN_SMS_ACCESS_KEY_ID'),
        accessKeySecret: required(e.ALIYUN_SMS_ACCESS_KEY_SECRET, 'ALIYUN_SMS_ACCESS_KEY_SECRET'),
        signName: required(e.SMS_SIGN_NAME, 'SMS_SIGN_NAME'),
        templateId: required(e.SMS_TEMPLATE_ID, 'SMS_TEMPLATE_ID'),
        closeTemplateId: e.SMS_ALIYUN_CLOSE_TEMPLATE,
        endpoint: e.ALIYUN_SMS_ENDPOINT,
      });
    case 'tencent':
      return tencentSmsProvider({
        secretId: required(e.TENCENT_SMS_SECRET_ID, 'TENCENT_SMS_SECRET_ID'),
        secretKey: required(e.TENCENT_SMS_SECRET_KEY, 'TENCENT_SMS_SECRET_KEY'),
        sdkAppId: required(e.TENCENT_SMS_SDK_APP_ID, 'TENCENT_SMS_SDK_APP_ID'),
        region: e.TENCENT_SMS_REGION,
        signName: required(e.SMS_SIGN_NAME, 'SMS_SIGN_NAME'),
        templateId: required(e.SMS_TEMPLATE_ID, 'SMS_TEMPLATE_ID'),
        closeTemplateId: e.SMS_TENCENT_CLOSE_TEMPLATE_ID,
        endpoint: e.TENCENT_SMS_ENDPOINT,
      });
  }
}
