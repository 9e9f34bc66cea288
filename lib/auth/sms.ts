import 'server-only';
import type { Db } from '../db/client';
import { smsOutbox } from '../db/schema';

/**
 * Where verification texts go (issue on accounts). A real carrier (Aliyun SMS, Tencent Cloud SMS...) implements
 * SmsProvider and is chosen by SMS_PROVIDER; production refuses the built-in `outbox` (lib/env.ts).
 */
export type SmsMessage = { channelId: number; phone: string; code: string; ttlMinutes: number; now: Date };

export interface SmsProvider {
  readonly name: string;
  /**
   * True for the demo outbox only: no text is sent, so getAuthCode hands the code back to the caller who asked for it
   * (bound to that request, never readable by phone number: security review, finding 1).
   */
  readonly showsCodes: boolean;
  send(db: Db, message: SmsMessage): Promise<void>;
}

/** The text of a code message; `code` is left out of what we keep (security review, finding 14). */
export function smsText(code: string, ttlMinutes: number): string {
  return `Your verification code is ${code}. It is valid for ${ttlMinutes} minutes. Do not share it with anyone.`;
}

/** The text as kept and logged: the code masked. */
export function keptSmsText(ttlMinutes: number): string {
  return smsText('******', ttlMinutes);
}

/** The demo provider: keeps each text (without its code) in the sms_outbox table and logs it; nothing leaves the machine. */
export const outboxProvider: SmsProvider = {
  name: 'outbox',
  showsCodes: true,
  async send(db, message) {
    const text = keptSmsText(message.ttlMinutes);
    await db.insert(smsOutbox).values({ channelId: message.channelId, phone: message.phone, text, createdAt: message.now });
    console.info(`[sms outbox] to ${message.phone.slice(0, 3)}****${message.phone.slice(-4)}: ${text}`);
  },
};

export function smsProvider(name: string): SmsProvider {
  if (name === 'outbox') return outboxProvider;
  throw new Error(`SMS_PROVIDER ${name} is not implemented`);
}
