/** What the privacy policy calls security records (the addresses and device of each code request and login). */
const SECURITY_RECORD_DAYS = 30;

/**
 * How long we keep what identifies a buyer or their device (security review, findings 7 and 14; docs/security.md has
 * the table and the reasons). Deleted by the background jobs (lib/jobs/retention.ts) at most once an hour per process;
 * the privacy policy a buyer agrees to states the same figures (lib/channel/agreements.ts).
 */
export const RETENTION = {
  /** Tracking records: page views with session ids and URLs. */
  trackingDays: 90,
  /** SMS codes (phone, IP, hashed code): long enough to look into abuse of a phone or a network. */
  smsCodeDays: SECURITY_RECORD_DAYS,
  /**
   * A device's login on a channel (a hash of its storefront_device id; issue 29), counted from its last login there:
   * while kept, the device gets codes when the channel's SMS budget for new numbers is spent. A security record in the
   * privacy policy's words, so kept as long as those.
   */
  loginDeviceDays: SECURITY_RECORD_DAYS,
  /** Demo outbox texts (the code is never kept). */
  smsOutboxDays: 1,
  /** Sessions (user, channel, IP at login), after they expired or were revoked. */
  endedSessionDays: 30,
  /**
   * A closed account's verified identity, accepted agreements, quotas and payer openids (issue 36; docs/security.md,
   * "Closed accounts"), counted from the closing and from its last trade, whichever is later: the E-Commerce Law asks
   * trade records be kept at least 3 years from a trade's completion (3 × 365 days and a leap day).
   */
  closedAccountDays: 3 * 365 + 1,
  /** A photo no longer anyone's avatar (replaced, cleared, its account closed) before it leaves the media store. */
  unusedAvatarDays: 1,
} as const;
