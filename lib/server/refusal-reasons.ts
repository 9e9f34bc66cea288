import type { Reason } from '../procedure/reasons';

/**
 * What each refusal reason (`data.reason`, lib/procedure/reasons.ts) means, for the API's own descriptions: the OpenAPI
 * document (./openapi.ts) and docs/api-answers.md (./api-docs.ts). A reason added without a meaning fails the type check.
 */
export const REASON_MEANINGS: Readonly<Record<Reason, string>> = {
  notOpen: 'the sale, gift, exchange or chain-up campaign has not opened yet (its start time is in `data` too)',
  ended: 'the sale, gift, exchange or chain-up campaign has ended',
  soldOut: 'nothing is left to buy, receive or exchange',
  notEnough: 'fewer copies are left than asked for',
  limit: "the buyer's limit for this sale or exchange is reached (unpaid orders hold copies too)",
  keyReused: 'the idempotency key was already used for another request',
  received: 'the buyer has already received this gift',
  notEligible: 'the gift is for holders of a collectible the buyer does not hold',
  missingInputs: 'the buyer does not hold what the exchange takes',
  badCode: 'the redeem, product or certificate code is unknown, of another store or used by someone else (one answer for all)',
  alreadyChainedUp: 'the buyer has already chained up this code (`data.recordId` is its record)',
  wrongType: 'the code is of the other type (`data.type`: 1 product code, 2 certificate code)',
  paid: 'the order is already paid',
  cancelled: 'the order is cancelled or has expired',
  provider: 'no payment provider fits the browser, the one asked for is not offered, or it refused (`data.offered`, `data.provider`)',
  openid: "WeChat Pay inside WeChat needs the buyer's WeChat identity first (`data.authorizeUrl`)",
  starting: 'a payment for this order is being opened by another call',
  attempts: 'the order has had the most payments one order takes',
  flood: 'the buyer opened too many payments for now',
  changed: 'the sale changed (price or limit per buyer) since the buyer saw it: they look at it again before buying',
  identityRequired:
    'the channel asks a verified real name before this action (`data.action`): the buyer verifies at /mine/identity and tries again',
  ageRestricted: "the buyer is under the channel's minimum age for this action (`data.minAge`, `data.action`); never their age",
  captchaRequired: 'a higher-risk buy (issue 33): the buyer passes the captcha and sends the same buy again with its `captchaTicket`',
  identityInUse: 'the ID number is already verified on another account of the deployment (which one is never said)',
  identityMismatch: 'the identity vendor says the name and the ID number do not belong together',
  alreadyVerified: "the buyer's account already has a verified real name",
  orderingPaused: 'the buyer left too many orders unpaid on the channel and may order again at `data.until` (issue 33)',
  notAdmitted:
    'the sale goes by lottery (issue 35) and this buyer may not buy it now, `data.lottery` saying why: `notRegistered` (not registered for its draw), `notDrawn` (the draw has not run), `waitlist` (not drawn among the winners), `windowOver` (their purchase window ended); or the sale goes through a waiting room and the buy came without a valid admission: `data.queue` says why, `missing`, `expired`, `otherBuyer` (another buyer’s), `otherSale` (another sale’s) or `forged`',
};
