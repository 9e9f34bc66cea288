import 'server-only';
import { and, desc, eq, gt } from 'drizzle-orm';
import type { Db } from '../db/client';
import { smsOutbox } from '../db/schema';

/**
 * Where verification texts go (issue on accounts). A real carrier (Aliyun SMS, Tencent Cloud SMS...) implements
 * SmsProvider and is chosen by SMS_PROVIDER; production refuses the built-in `outbox` (lib/env.ts).
 */
export type SmsMessage = { channelId: number; phone: string; text: string; now: Date };

export interface SmsProvider {
  readonly name: string;
  /** True when codes may be shown on the login page (the demo outbox only). */
  readonly showsCodes: boolean;
  send(db: Db, message: SmsMessage): Promise<void>;
}

/** The demo provider: keeps each text in the sms_outbox table and logs it; nothing leaves the machine. */
export const outboxProvider: SmsProvider = {
  name: 'outbox',
  showsCodes: true,
  async send(db, message) {
    await db.insert(smsOutbox).values({ channelId: message.channelId, phone: message.phone, text: message.text, createdAt: message.now });
    console.info(`[sms outbox] to ${message.phone.slice(0, 3)}****${message.phone.slice(-4)}: ${message.text}`);
  },
};

export function smsProvider(name: string): SmsProvider {
  if (name === 'outbox') return outboxProvider;
  throw new Error(`SMS_PROVIDER ${name} is not implemented`);
}

/** The newest outbox text to a phone on a channel since `since` (demo login page). */
export async function latestOutboxText(db: Db, channelId: number, phone: string, since: Date): Promise<{ text: string; sentAt: string } | null> {
  const [row] = await db
    .select({ text: smsOutbox.text, createdAt: smsOutbox.createdAt })
    .from(smsOutbox)
    .where(and(eq(smsOutbox.channelId, channelId), eq(smsOutbox.phone, phone), gt(smsOutbox.createdAt, since)))
    .orderBy(desc(smsOutbox.createdAt), desc(smsOutbox.id))
    .limit(1);
  return row ? { text: row.text, sentAt: row.createdAt.toISOString() } : null;
}
