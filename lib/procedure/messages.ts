import { createTranslator, type Formats, type ICUArgs, type MessageKeys, type NestedKeyOf, type NestedValueOf } from 'use-intl/core';
import type en from '../i18n/messages/en';
import { CATALOGUES } from '../i18n/translator';
import type { Locale } from '../i18n/locale';

/**
 * The API's words (issue 17, item 4; issue 30; docs/api.md, "Languages"). They live in the store's catalogues
 * (lib/i18n/messages/*.ts, namespace `api`, ICU syntax) beside the pages' words. A service throws
 * `new AppError(code, msg('key', {...}))`; the dispatcher renders it in the caller's locale and the channel's time zone.
 * The English text also stays the error's `message` (logs, tests).
 *
 * A key's values are typed from its English text: `msg('saleOnlyLeft', { left: 3 })` compiles, a missing or misspelt
 * value does not; a locale missing a key fails the type check of its catalogue (`Messages`).
 */

type ApiTexts = (typeof en)['api'];
type ApiKey = MessageKeys<ApiTexts, NestedKeyOf<ApiTexts>>;
type ArgsOf<K extends ApiKey> = ICUArgs<
  NestedValueOf<ApiTexts, K>,
  { ICUArgument: string; ICUNumberArgument: number; ICUDateArgument: Date }
>;
/** The values a text takes: its ICU arguments, with `{waitMs}` a wait in milliseconds (written in words by `part.wait`). */
type ValuesOf<K extends ApiKey> = { [A in keyof ArgsOf<K>]: A extends 'waitMs' ? number : ArgsOf<K>[A] };

/** The refusals (the parts and the input texts below are not thrown on their own). */
export type ApiMessageKey = Exclude<ApiKey, `part.${string}` | `input.${string}`>;

/** A refusal in words: a catalogue key and its values, rendered in the caller's locale when the answer is sent. */
export type ApiMessage = { [K in ApiMessageKey]: { key: K; params: ValuesOf<K> } }[ApiMessageKey];

type NoValues<K extends ApiKey> = keyof ValuesOf<K> extends never ? true : false;

/** `msg('saleOnlyLeft', { left: 3 })`: a message of the catalogue, its values checked against the key's text. */
export function msg<K extends ApiMessageKey>(key: K, ...params: NoValues<K> extends true ? [] : [ValuesOf<K>]): ApiMessage {
  return { key, params: params[0] ?? {} } as ApiMessage;
}

/**
 * The API field a refusal is about, sent as the answer's `data.field` (docs/api.md, "Languages"): the text is a sentence
 * for the buyer, the field is for the client that sent it.
 */
const FIELD_OF: { readonly [K in ApiMessageKey]?: string } = {
  captchaPow: 'pow',
  captchaExpired: 'id',
  captchaWantsAnswer: 'x',
  captchaWantsDrag: 'answer',
  captchaTrack: 'track',
  captchaMissed: 'x',
  captchaWrongAnswer: 'answer',
  captchaTicket: 'behaviorVerify',
  buyCaptchaRequired: 'captchaTicket',
  smsPhoneWait: 'phone',
  smsCodeFlood: 'code',
  smsCodeNone: 'code',
  smsCodeSpent: 'code',
  smsCodeWrong: 'code',
  smsCarrierPhoneLimit: 'phone',
  smsCarrierPhoneRefused: 'phone',
  brandMismatch: 'brandName',
  saleNotFound: 'saleId',
  saleOverLimit: 'quantity',
  saleOnlyLeft: 'quantity',
  saleLimitHeld: 'quantity',
  orderNotFound: 'orderNo',
  orderNotCancellable: 'orderNo',
  orderNotPayable: 'orderNo',
  paymentNotFound: 'paymentNo',
  payProviderNone: 'provider',
  payProviderChoose: 'provider',
  payProviderNotOffered: 'provider',
  payProviderWrongClient: 'provider',
  payProviderBusy: 'provider',
  payProviderRefused: 'provider',
  payStarting: 'orderNo',
  payTooManyAttempts: 'orderNo',
  idempotencyKeyReused: 'idempotencyKey',
  boxNotFound: 'id',
  boxOpen: 'id',
  boxEmpty: 'id',
  codeFlood: 'code',
  codeWrong: 'code',
  giftNotFound: 'id',
  giftNeedsCode: 'code',
  exchangeNotFound: 'exchangeId',
  exchangeTwice: 'holdingIds',
  exchangeNotYours: 'holdingIds',
  exchangeNotAsked: 'holdingIds',
  exchangeWrongCount: 'holdingIds',
  exchangeNeedsCode: 'code',
  chainCodeWrong: 'code',
  chainStoreUnknown: 'storeCode',
  chainCampaignNotFound: 'id',
  chainDone: 'code',
  chainWrongType: 'type',
  chainRecordNotFound: 'id',
  trackingFlood: 'records',
  // Uploaded images (issue 31): every refusal is about the file, but for the purpose it was uploaded as.
  mediaPurpose: 'purpose',
  mediaEmpty: 'file',
  mediaTooLarge: 'file',
  mediaNotImage: 'file',
  mediaSvg: 'file',
  mediaTooWide: 'file',
  mediaTooSmall: 'file',
  mediaUnreadable: 'file',
  mediaBusy: 'file',
  // Channel domains (issue 31): every refusal is about the host typed or chosen.
  domainIp: 'host',
  domainPort: 'host',
  domainPath: 'host',
  domainInvalid: 'host',
  domainOperatorHost: 'host',
  domainBrandHost: 'host',
  domainKeyHost: 'host',
  domainTaken: 'host',
  domainAlreadyAdded: 'host',
  domainNotFound: 'host',
  domainNotVerified: 'host',
  domainKeyHostFixed: 'host',
  // Refunds (issue 32): the order asked for, or the copies chosen.
  refundOrderNotFound: 'orderNo',
  // The channel's buyer rules (issue 33).
  opsIdentityPolicyBlindBoxAge: 'blindBoxMinAge',
  // The lottery (issue 35): the buyer's sale, the console's times and public value; opsLotteryFrozen names its field in
  // the call (the first setting that would change).
  lotteryNone: 'saleId',
  lotteryNotOpen: 'saleId',
  lotteryClosed: 'saleId',
  lotteryIdentityRegistered: 'saleId',
  lotteryBuyNotRegistered: 'saleId',
  lotteryBuyNotDrawn: 'saleId',
  lotteryBuyWaitlisted: 'saleId',
  lotteryBuyWindowOver: 'saleId',
  opsLotteryNone: 'sale',
  opsLotteryOpensPast: 'registrationOpensAt',
  opsLotteryClosesBeforeOpening: 'registrationClosesAt',
  opsLotteryDrawBeforeClose: 'drawAt',
  opsLotteryHasOrders: 'sale',
  opsLotteryQueueOpen: 'sale',
  opsLotteryCopiesFrozen: 'copies',
  opsLotteryDrawTooEarly: 'sale',
  opsLotteryDrawnAlready: 'sale',
  opsLotteryPublicValue: 'publicValue',
  // issue 35: the waiting room: the buyer's sale, the buy's admission, the console's settings (opsQueueFrozen names its
  // field in the call).
  queueNone: 'saleId',
  queueNotOpen: 'saleId',
  queueSoldOut: 'saleId',
  queueEnded: 'saleId',
  queueBuyMissing: 'admission',
  queueBuyExpired: 'admission',
  queueBuyOtherBuyer: 'admission',
  queueBuyOtherSale: 'admission',
  queueBuyForged: 'admission',
  opsQueueJoinOpensPast: 'joinMinutes',
  opsQueueLottery: 'sale',
  // issue 35: priority purchase (opsPriorityFrozen names its field in the call).
  opsPriorityMode: 'mode',
  opsPriorityOtherMode: 'mode',
  opsPriorityHasOrders: 'sale',
  opsPriorityDecidePast: 'decideAt',
  opsPriorityDecideAfterOpening: 'decideAt',
  opsPriorityNoRule: 'holderCollectibles',
  opsPriorityNoSuchCollectible: 'holderCollectibles',
  opsPriorityWhitelistTooLong: 'csv',
  opsPriorityWhitelistEmpty: 'csv',
  // issue 35: inbox
  messageReadWhich: 'ids',
  refundOrderNotPaid: 'orderNo',
  refundNoCopies: 'holdingIds',
  refundCopyNotOfOrder: 'holdingIds',
  refundCopyNotRefundable: 'holdingIds',
  refundOverPaid: 'holdingIds',
  refundNoPayment: 'orderNo',
  saleCancelled: 'saleId',
  saleAlreadyCancelled: 'saleId',
  noticeNotFound: 'id',
  noticeWithdrawn: 'id',
  opsChannelKeyReserved: 'key',
  opsChannelKeyHost: 'key',
  opsChannelKeyTaken: 'key',
  // API keys (issue 31): a key's scope as asked for.
  opsApiKeyRoleTooHigh: 'role',
  opsApiKeyChannelNotYours: 'channels',
  // Buyers in the console (issue 32): who to block, and how widely.
  opsBuyerNotFound: 'accountNumber',
  opsBlockEveryChannelOwnersOnly: 'everyChannel',
  // The blocklist's added values (issue 33): the typed phone or range, or the buyer the identity is chosen from.
  opsBlocklistRangeInvalid: 'value',
  opsBlocklistRangeTooWide: 'value',
  opsBlocklistPhoneInvalid: 'value',
  // Catalogue, sales and blind boxes (issue 32); opsSaleFrozen names its field in the call (price, limit or opening).
  opsSaleNotFound: 'sale',
  opsSaleCopiesBelowTaken: 'copies',
  opsSaleClosesBeforeOpening: 'saleEndTime',
  opsSaleOpeningPast: 'saleStartTime',
  opsSaleOpeningBeforePriorityDecision: 'saleStartTime',
  opsSaleHasOrders: 'sale',
  opsSaleArchived: 'sale',
  opsSaleCodeTaken: 'code',
  opsCollectibleNotFound: 'collectible',
  opsCollectibleCodeTaken: 'code',
  opsEditionBelowMinted: 'amountSku',
  opsBoxOddsTotal: 'prizes',
  opsBoxNotBox: 'collectible',
  opsBoxPrizeUnknown: 'prizes',
  opsBoxPrizeTwice: 'prizes',
  // Campaigns, batches, recipes and chain-up campaigns (issue 32).
  codeRevoked: 'code',
  codeExpired: 'code',
  opsCampaignNotFound: 'campaignId',
  opsCampaignCodeTaken: 'code',
  opsCampaignClosesBeforeOpening: 'endTime',
  opsOfferNotFound: 'offerId',
  opsOfferTotalBelowTaken: 'total',
  opsOfferCommodityOtherChannel: 'commodity',
  opsOfferRequiresOtherChannel: 'requires',
  opsRecipeNoInput: 'inputs',
  opsRecipeInputOtherChannel: 'inputs',
  opsGiftNoInputs: 'inputs',
  opsBatchOfferNoCode: 'offerId',
  opsBatchNotFound: 'batchId',
  opsBatchExported: 'batchId',
  opsBatchSealExpired: 'batchId',
  opsBatchImported: 'batchId',
  opsBatchRevoked: 'batchId',
  opsBatchCodeNotFound: 'code',
  opsBatchImportInvalid: 'codes',
  opsBatchImportDuplicate: 'codes',
  opsChainCampaignNotFound: 'campaignId',
  opsChainCodeDuplicate: 'codes',
  // Editing campaigns (issue 32); campaignEditFrozen names its field in the call (startTime, commodity, requires...).
  campaignEditCodesIssued: 'requiresCode',
  campaignEditEnded: 'campaignId',
  // A channel's alert webhook (issue 32, "Reports").
  // The buyer's real-name verification (issue 33).
  identityName: 'name',
  identityIdNumber: 'idNumber',
  identityConsent: 'consentVersion',
  identityNoRecord: 'idNumber',
  alertWebhookUrlInvalid: 'url',
  alertWebhookUrlCredentials: 'url',
  alertWebhookUrlHttps: 'url',
  alertWebhookUrlInternal: 'url',
  alertWebhookUrlRequired: 'url',
  alertWebhookSecretUnsigned: 'secret',
  // issue 36: gifting
  transferHoldingNotFound: 'holdingId',
  transferBlindBox: 'holdingId',
  transferHoldingPeriod: 'holdingId',
  transferChainPending: 'holdingId',
  transferRefundPending: 'holdingId',
  transferOffered: 'holdingId',
  transferReceiverUnknown: 'accountNumber',
  transferSelf: 'accountNumber',
  transferLookupFlood: 'accountNumber',
  transferReceiverIdentity: 'accountNumber',
  transferReceiverAge: 'accountNumber',
  transferNotFound: 'transferId',
  transferAnswered: 'transferId',
  transferGone: 'transferId',
  // issue 36: profile
  profileNicknameSpaces: 'nickname',
  profileNicknameLength: 'nickname',
  profileNicknameChars: 'nickname',
  profileNicknameRefused: 'nickname',
  profileAvatarUnknown: 'avatar',
  // issue 36: avatar upload
  profileAvatarEmpty: 'avatar',
  profileAvatarTooLarge: 'avatar',
  profileAvatarKind: 'avatar',
  profileAvatarUnreadable: 'avatar',
  profileAvatarTooWide: 'avatar',
  profileAvatarLimited: 'avatar',
  // issue 36: the WeChat share card
  wechatUrlForeign: 'url',
};

/** The field a refusal is about, or null (a refusal about the call as a whole: a sale not open, a flood...). */
export function fieldOf(message: ApiMessage): string | null {
  return FIELD_OF[message.key] ?? null;
}

/** The zone of a caller without a channel (the column's default, lib/db/schema.ts): the mainland's one time zone. */
export const DEFAULT_TIME_ZONE = 'Asia/Shanghai';

/**
 * How the texts write a moment (`{at, date, moment}`): "December 1, 2026 at 20:00", "2026年12月1日 20:00", on the
 * 24-hour clock the store's pages use (`HH:mm`).
 */
const FORMATS = {
  dateTime: {
    moment: { year: 'numeric', month: 'long', day: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' },
    // The moment with its zone named ("China Standard Time"), where the buyer must act on the time (issue 33).
    momentZoned: {
      year: 'numeric',
      month: 'long',
      day: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
      timeZoneName: 'long',
    },
  },
} satisfies Formats;

function apiTranslatorFor(locale: Locale, timeZone: string) {
  return createTranslator({
    locale,
    messages: CATALOGUES[locale],
    namespace: 'api',
    timeZone,
    formats: FORMATS,
    // A text that does not render is a fault of the catalogue (a test renders every one in every locale).
    onError: (error) => console.error(`[i18n] an API text did not render: ${error.message}`),
  });
}
type ApiTranslator = ReturnType<typeof apiTranslatorFor>;

/** One translator per locale and zone, kept: it caches the parsed texts, and a refusal is rendered on every refused call. */
const translators = new Map<string, ApiTranslator>();

function isTimeZone(timeZone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone });
    return true;
  } catch {
    return false;
  }
}

function apiTranslator(locale: Locale, timeZone: string): ApiTranslator {
  const id = `${locale} ${timeZone}`;
  let found = translators.get(id);
  if (!found) {
    // A misconfigured channel zone must not break its answers: unknown zones write UTC (as lib/format/date.ts does).
    if (!isTimeZone(timeZone)) return apiTranslator(locale, 'UTC');
    found = apiTranslatorFor(locale, timeZone);
    translators.set(id, found);
  }
  return found;
}

/** A wait as its text takes it: seconds under two minutes, minutes under two hours, then hours (rounded up). */
export function waitParts(ms: number): { unit: 'second' | 'minute' | 'hour'; count: number } {
  const seconds = Math.max(1, Math.ceil(ms / 1000));
  const minutes = Math.ceil(seconds / 60);
  if (seconds < 120) return { unit: 'second', count: seconds };
  if (minutes < 120) return { unit: 'minute', count: minutes };
  return { unit: 'hour', count: Math.ceil(minutes / 60) };
}

type Text = { key: ApiKey; values: Record<string, string | number | Date> };

function render(t: ApiTranslator, text: Text): string {
  const values = { ...text.values };
  if (typeof values.waitMs === 'number') values.waitMs = t('part.wait', waitParts(values.waitMs));
  // The catalogue's type (`Messages`) widens the texts to strings; the values were checked against the English text.
  return t(text.key, values);
}

/** The message in a locale's words, its moments in the given time zone (the channel's). */
export function renderMessage(message: ApiMessage, locale: Locale, timeZone: string = DEFAULT_TIME_ZONE): string {
  return render(apiTranslator(locale, timeZone), { key: message.key, values: message.params as Text['values'] });
}

/** Every refusal key (tests render each in every locale and check no locale falls back to another's words). */
export const API_MESSAGE_KEYS = Object.keys(CATALOGUES.en.api).filter(
  (key) => typeof CATALOGUES.en.api[key as keyof ApiTexts] === 'string',
) as ApiMessageKey[];

/** What a zod issue says (zod 4's issue, as much of it as the texts read). */
export type InputIssue = {
  path?: readonly PropertyKey[];
  code: string;
  message?: string;
  input?: unknown;
  expected?: unknown;
  origin?: string;
  minimum?: unknown;
  maximum?: unknown;
  values?: readonly unknown[];
  keys?: readonly string[];
};

type InputKey = Extract<ApiKey, `input.${string}`>;
type InputText = { [K in InputKey]: { key: K; values: ValuesOf<K> } }[InputKey];

/** The one place a schema's refusal of an input becomes words: the zod issue's code to a catalogue text. */
function inputWhy(issue: InputIssue): InputText {
  switch (issue.code) {
    case 'invalid_type':
      return issue.input === undefined
        ? { key: 'input.required', values: {} }
        : { key: 'input.wrongType', values: { expected: String(issue.expected) } };
    case 'too_small':
      return issue.origin === 'string' && Number(issue.minimum) === 1
        ? { key: 'input.empty', values: {} }
        : { key: 'input.tooSmall', values: { origin: String(issue.origin), minimum: Number(issue.minimum) } };
    case 'too_big':
      return { key: 'input.tooBig', values: { origin: String(issue.origin), maximum: Number(issue.maximum) } };
    case 'invalid_format':
      return { key: 'input.format', values: {} };
    case 'invalid_value':
      return { key: 'input.notAllowed', values: { values: (issue.values ?? []).map(String).join(', ') } };
    case 'unrecognized_keys':
      return { key: 'input.unknownKeys', values: { keys: (issue.keys ?? []).join(', ') } };
    default:
      return { key: 'input.invalid', values: {} };
  }
}

/**
 * English words for the issues a schema finds without words of its own (zod's per-parse error map: a schema's own
 * message, written for the client that sends the field, still wins). Pass it to `safeParse(input, { error })`.
 */
export function inputError(issue: InputIssue): string {
  return render(apiTranslator('en', DEFAULT_TIME_ZONE), inputWhy(issue));
}

/**
 * Input problems as one line, "field: why; field: why" (DESIGN §5), in the caller's locale. English keeps each field's
 * path in the API and the schema's words; other locales name the field (its top-level name) and the problem in their own.
 */
export function describeInput(issues: InputIssue[], locale: Locale): string {
  const t = apiTranslator(locale, DEFAULT_TIME_ZONE);
  return issues
    .map(({ path: at = [], ...issue }) => {
      const path = at.length ? at.map(String).join('.') : 'body';
      const name = typeof at[0] === 'string' ? at[0] : 'body';
      const why = locale === 'en' && issue.message ? issue.message : render(t, inputWhy(issue));
      return t('input.line', { field: t('input.field', { name, path }), why });
    })
    .reduce((first, next) => t('input.lines', { first, next }));
}
