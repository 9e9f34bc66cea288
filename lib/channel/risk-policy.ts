import type { RiskPolicyJson } from '../db/schema';

/**
 * A channel's risk rules at order time (issue 33, "Risk controls"), read from `channels.risk_policy` with their
 * defaults. Pure; the one reader of that JSON.
 */
export type RiskPolicy = {
  /** `limit` orders cancelled or expired unpaid within `withinHours` bar ordering for `blockHours`; limit 0: off. */
  unpaid: { limit: number; withinHours: number; blockHours: number };
  /** A higher-risk buy may be asked for a captcha at the buy tap. */
  captcha: boolean;
};

/** The defaults (issue 33: 3 / 24 h / 24 h; captcha on). */
export const DEFAULT_RISK_POLICY: RiskPolicy = { unpaid: { limit: 3, withinHours: 24, blockHours: 24 }, captcha: true };

/** The bounds the console accepts (and this parser keeps to): a week at most, 20 orders at most. */
export const RISK_BOUNDS = { limit: { min: 0, max: 20 }, hours: { min: 1, max: 168 } } as const;

function within(value: unknown, bounds: { min: number; max: number }, fallback: number): number {
  return typeof value === 'number' && Number.isInteger(value) && value >= bounds.min && value <= bounds.max ? value : fallback;
}

/** Leniently: a value out of bounds reads as its default. */
export function parseRiskPolicy(json: unknown): RiskPolicy {
  const raw = (typeof json === 'object' && json !== null ? json : {}) as RiskPolicyJson;
  const unpaid = (typeof raw.unpaid === 'object' && raw.unpaid !== null ? raw.unpaid : {}) as Record<string, unknown>;
  const d = DEFAULT_RISK_POLICY;
  return {
    unpaid: {
      limit: within(unpaid.limit, RISK_BOUNDS.limit, d.unpaid.limit),
      withinHours: within(unpaid.withinHours, RISK_BOUNDS.hours, d.unpaid.withinHours),
      blockHours: within(unpaid.blockHours, RISK_BOUNDS.hours, d.unpaid.blockHours),
    },
    captcha: typeof raw.captcha === 'boolean' ? raw.captcha : d.captcha,
  };
}
