/**
 * How long we keep what identifies a buyer or their device (security review, findings 7 and 14; docs/security.md has
 * the table and the reasons). Deleted by the background jobs (lib/jobs/retention.ts) at most once an hour per process;
 * the privacy policy a buyer agrees to states the same figures (lib/channel/agreements.ts).
 */
export const RETENTION = {
  /** Tracking records: page views with session ids and URLs. */
  trackingDays: 90,
  /** SMS codes (phone, IP, hashed code): long enough to look into abuse of a phone or a network. */
  smsCodeDays: 30,
  /** Demo outbox texts (the code is never kept). */
  smsOutboxDays: 1,
  /** Sessions (user, channel, IP at login), after they expired or were revoked. */
  endedSessionDays: 30,
} as const;
