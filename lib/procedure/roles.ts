/**
 * Operator roles (issue 31, "Operator accounts"): an owner does everything on every channel; a manager works on the
 * channels an owner grants; support reads (and later refunds) on the channels granted. Pure.
 */
export const OPERATOR_ROLES = ['owner', 'manager', 'support'] as const;
export type OperatorRole = (typeof OPERATOR_ROLES)[number];

/** What a procedure lets in: the roles, and whether a channel named in the input must be one the operator works on. */
export type OperatorRule = {
  roles: readonly OperatorRole[];
  /** `input`: the input's `channel` (a key) must be granted (owners: any); `none`: no channel in the call. */
  channel: 'input' | 'none';
  /**
   * A sensitive write (issue 31: adding a domain, granting a role, payment settings): the operator must have proved
   * their password and second factor again within the last few minutes, not only hold a session.
   */
  reauth?: boolean;
  /**
   * What the call does to the console's data (issue 31, "An audit trail"): it `creates`, `changes` or `removes`
   * something, and then leaves exactly one audit entry with the row before (none for `creates`) and after (none for
   * `removes`); an `event` (a re-confirmation of who one is) leaves its one entry whether it succeeds or not, with no
   * row before or after; omitted for a read. lib/operator/audit-coverage.test.ts calls every operator procedure of the registry
   * and fails for a declared write without its entry, and for an undeclared one that changes a table.
   */
  writes?: 'creates' | 'changes' | 'removes' | 'event';
};

/** Everyone signed in. */
export const ANY_ROLE: readonly OperatorRole[] = OPERATOR_ROLES;

/** Whether an operator of this role works on every channel without a grant. */
export function seesEveryChannel(role: OperatorRole): boolean {
  return role === 'owner';
}
