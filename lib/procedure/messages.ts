import { formatDate } from '../format/date';
import type { Locale } from '../i18n/locale';

/**
 * The API's refusals in words, in every locale of the store (issue 17, item 4; docs/api.md, "Languages"). A service
 * throws `new AppError(code, msg('key', {...}))`; the dispatcher renders it in the caller's locale. The English text
 * stays the error's `message` (logs, tests) and reads as before: "field: why".
 *
 * Times are passed as Dates and waits as milliseconds, so each locale writes them its own way. Chinese texts use the
 * buyer's words for the field ("兑换码：…") rather than its name in the API.
 */

/** A wait in words: seconds under two minutes, minutes under two hours, then hours. */
export function waitText(ms: number, locale: Locale = 'en'): string {
  const seconds = Math.max(1, Math.ceil(ms / 1000));
  const minutes = Math.ceil(seconds / 60);
  const hours = Math.ceil(minutes / 60);
  if (locale === 'zh-CN') return seconds < 120 ? `${seconds} 秒` : minutes < 120 ? `${minutes} 分钟` : `${hours} 小时`;
  return seconds < 120 ? `${seconds} s` : minutes < 120 ? `${minutes} min` : `${hours} h`;
}

/** A moment in Chinese, on Beijing time (the mainland's one time zone), as a buyer reads it: "2026年11月25日 20:00". */
function zhTime(at: Date): string {
  return `${formatDate(at, 'yyyy年M月d日 HH:mm', 'Asia/Shanghai')}（北京时间）`;
}

const en = {
  // Sessions and the dispatcher
  notLoggedIn: () => 'not logged in, or the session has expired; please log in',
  busy: () => 'busy: too many buyers at once; retry in a moment',
  internal: () => 'internal error, please retry later',
  channelNotFound: (p: { key: string }) => `channel ${p.key || '(empty)'} not found`,
  // Login: captcha and SMS codes
  captchaFlood: (p: { waitMs: number }) => `too many security checks from this network; try again in ${waitText(p.waitMs)}`,
  captchaPow: () => "pow: does not solve this captcha's proof of work; send the number found for the challenge's own pow",
  captchaExpired: () => 'id: this captcha has expired or was already answered; load a new one',
  captchaWantsAnswer: () => 'x: this captcha takes an answer, not a drag',
  captchaWantsDrag: () => 'answer: this captcha takes a drag, not an answer',
  captchaTrack: (p: { problem: string }) => p.problem,
  captchaMissed: () => 'x: the piece is not in the gap; try again',
  captchaWrongAnswer: () => 'answer: is not right; try the new question',
  captchaTicket: () => 'behaviorVerify: solve the captcha first (the ticket is missing, used or expired)',
  smsFlood: (p: { waitMs: number }) => `too many codes requested from this network or device; try again in ${waitText(p.waitMs)}`,
  smsPhoneWait: (p: { waitMs: number }) => `phone: a code was sent to this number lately; ask again in ${waitText(p.waitMs)}`,
  smsStoreBudget: () => 'this store is sending too many codes right now; try again later',
  smsCodeFlood: (p: { waitMs: number }) => `code: too many wrong codes from this network; try again in ${waitText(p.waitMs)}`,
  smsCodeNone: () => 'code: has expired or was never sent; ask for a new code',
  smsCodeSpent: (p: { tries: number }) => `code: wrong ${p.tries} times; this code no longer works, ask for a new one`,
  smsCodeWrong: (p: { left: number }) => `code: is wrong; ${p.left} ${p.left === 1 ? 'try' : 'tries'} left`,
  smsCarrierPhoneLimit: () => 'phone: too many codes to this number today; try again later',
  smsCarrierPhoneRefused: () => 'phone: this number cannot receive text messages from this store; check it or use another one',
  smsCarrierCannotSend: () => 'this store cannot send codes right now; try again later',
  smsCarrierNoAnswer: () => 'the text message service did not answer; try again in a minute',
  brandMismatch: (p: { brand: string }) => `brandName: is not the brand of this channel (${p.brand})`,
  // Buying and paying
  saleNotFound: () => 'saleId: no such sale in this store',
  saleIdNotFound: (p: { id: number }) => `sale ${p.id} not found`,
  saleNotOpen: (p: { at: Date }) => `sale: opens at ${p.at.toISOString()}`,
  saleEnded: () => 'sale: has ended',
  saleOverLimit: (p: { limit: number }) => `quantity: at most ${p.limit} per buyer for this sale`,
  saleSoldOut: () => 'sale: sold out',
  saleOnlyLeft: (p: { left: number }) => `quantity: only ${p.left} left`,
  saleLimitHeld: (p: { limit: number }) => `quantity: the limit is ${p.limit} per buyer, and your orders already hold copies of this sale`,
  orderNotFound: () => 'orderNo: no such order of yours',
  orderNotCancellable: (p: { paid: boolean }) => `orderNo: this order is ${p.paid ? 'paid' : 'already cancelled'} and cannot be cancelled`,
  orderNotPayable: (p: { paid: boolean }) => `orderNo: this order is ${p.paid ? 'already paid' : 'cancelled'}; it cannot be paid`,
  paymentNotFound: () => 'paymentNo: no such payment of yours',
  payProviderNone: (p: { client: string }) =>
    `provider: none of this channel's payment providers takes payments in this browser (${p.client})`,
  payProviderChoose: (p: { names: string }) => `provider: is required: choose one of ${p.names}`,
  payProviderNotOffered: (p: { asked: string; run: boolean; offered: string }) =>
    `provider: ${p.asked} ${p.run ? 'is not run by this deployment' : 'is not offered by this channel'} (offered: ${p.offered})`,
  payProviderWrongClient: (p: { asked: string; client: string; here: string }) =>
    `provider: ${p.asked} does not take payments in this browser (${p.client}); here: ${p.here}`,
  payNeedsOpenid: () => 'openid: WeChat Pay inside WeChat needs your WeChat identity first; open authorizeUrl and try again',
  payProviderBusy: (p: { provider: string; code: string }) =>
    `provider: ${p.provider} is busy or unreachable (${p.code}); try again shortly`,
  payProviderRefused: (p: { provider: string; code: string; detail: string }) =>
    `provider: ${p.provider} refused the payment (${p.code}: ${p.detail})`,
  sandboxOff: () => 'the sandbox cashier is off: payments go through the configured provider',
  idempotencyKeyReused: () => 'idempotencyKey: already used for another request; use a fresh key',
  // Blind boxes
  boxNotFound: () => 'id: no such blind box of yours',
  boxOpen: () => 'id: this box is already open',
  boxEmpty: () => 'id: every prize of this box is gone; contact the store',
  // Redeem codes, gifts and exchanges
  codeFlood: () => 'code: too many wrong codes; try again in an hour',
  codeWrong: () => 'code: this code is not valid here, or has been used',
  giftNotFound: () => 'id: no such gift in this store',
  giftNotOpen: (p: { at: Date }) => `gift: opens at ${p.at.toISOString()}`,
  giftEnded: () => 'gift: this campaign has ended',
  giftNeedsCode: () => 'code: is required for this gift',
  giftHoldersOnly: (p: { name: string }) => `gift: only holders of ${p.name} can receive this gift`,
  giftReceived: () => 'gift: you have already received this gift',
  giftSoldOut: () => 'gift: all of these gifts have been received',
  exchangeNotFound: () => 'exchangeId: no such exchange in this store',
  exchangeTwice: () => 'holdingIds: the same holding is named twice',
  exchangeNotYours: (p: { id: number }) => `holdingIds: ${p.id} is not a collectible of yours in this store`,
  exchangeNotAsked: (p: { id: number }) => `holdingIds: ${p.id} is not asked for by this exchange`,
  exchangeWrongCount: (p: { quantity: number; name: string; got: number }) =>
    `holdingIds: this exchange takes ${p.quantity} × ${p.name}, ${p.got} chosen`,
  exchangeNotOpen: (p: { at: Date }) => `exchange: opens at ${p.at.toISOString()}`,
  exchangeEnded: () => 'exchange: this activity has ended',
  exchangeNoRecipe: () => 'exchange: this offer has no recipe yet',
  exchangeNeedsCode: () => 'code: is required for this exchange',
  exchangeLimit: (p: { limit: number }) => `exchange: the limit is ${p.limit} per user, and you have reached it`,
  exchangeSoldOut: () => 'exchange: none of these are left',
  exchangeShort: (p: { quantity: number; name: string; have: number }) =>
    `exchange: it takes ${p.quantity} × ${p.name}, you have ${p.have} to spend`,
  // Chain-up
  chainStoreUnknown: () => 'storeCode: is not one of the stores of this channel; choose the store you bought it from',
  chainCampaignNotFound: () => 'id: no such chain-up campaign in this store',
  chainNotOpen: (p: { name: string; at: Date }) => `chainUp: ${p.name} opens at ${p.at.toISOString()}`,
  chainEnded: (p: { name: string }) => `chainUp: ${p.name} has ended`,
  chainDone: () => 'code: you have already chained up this code',
  chainWrongType: (p: { is: number; asked: number }) => `type: this is ${codeTypeName(p.is)}, not ${codeTypeName(p.asked)}`,
  chainRecordNotFound: () => 'id: no such chain-up record of yours in this store',
  // Tracking
  trackingFlood: (p: { waitMs: number }) => `records: too many tracking records from this sender; try again in ${waitText(p.waitMs)}`,
  // Paying: what one buyer may cost the store's payment provider (issue 29)
  payStarting: () => 'orderNo: a payment for this order is being opened; try again in a moment',
  payTooManyAttempts: (p: { limit: number }) =>
    `orderNo: ${p.limit} payments were opened for this order, the most one order takes; cancel it and buy again`,
  payCreateFlood: (p: { waitMs: number }) => `too many payments opened from this account; try again in ${waitText(p.waitMs)}`,
};

function codeTypeName(type: number): string {
  return type === 2 ? 'a certificate code' : 'a product code';
}

export type ApiMessageKey = keyof typeof en;
type ParamsOf<K extends ApiMessageKey> = Parameters<(typeof en)[K]>[0];
type Catalogue = { [K in ApiMessageKey]: (p: ParamsOf<K> & {}) => string };

const zhCN: Catalogue = {
  notLoggedIn: () => '未登录或登录已过期，请重新登录',
  busy: () => '当前购买人数过多，请稍后再试',
  internal: () => '服务器开小差了，请稍后再试',
  channelNotFound: () => '找不到这家店铺',
  captchaFlood: (p) => `当前网络的安全验证次数过多，请 ${waitText(p.waitMs, 'zh-CN')}后再试`,
  captchaPow: () => '安全验证未通过，请刷新验证后重试',
  captchaExpired: () => '安全验证已过期或已使用，请重新验证',
  captchaWantsAnswer: () => '这个验证需要填写答案，而不是拖动滑块',
  captchaWantsDrag: () => '这个验证需要拖动滑块，而不是填写答案',
  captchaTrack: () => '拖动轨迹异常，请按住滑块重新拖动',
  captchaMissed: () => '拼图没有对准缺口，请再试一次',
  captchaWrongAnswer: () => '答案不正确，请回答新的问题',
  captchaTicket: () => '请先完成安全验证（验证已失效、已使用或缺失）',
  smsFlood: (p) => `当前网络或设备获取验证码过于频繁，请 ${waitText(p.waitMs, 'zh-CN')}后再试`,
  smsPhoneWait: (p) => `验证码已发送到该手机号，请 ${waitText(p.waitMs, 'zh-CN')}后再获取`,
  smsStoreBudget: () => '店铺当前发送验证码过多，请稍后再试',
  smsCodeFlood: (p) => `当前网络输错验证码次数过多，请 ${waitText(p.waitMs, 'zh-CN')}后再试`,
  smsCodeNone: () => '验证码已过期或未发送，请重新获取',
  smsCodeSpent: (p) => `验证码已输错 ${p.tries} 次并已失效，请重新获取`,
  smsCodeWrong: (p) => `验证码错误，还可以再试 ${p.left} 次`,
  smsCarrierPhoneLimit: () => '该手机号今天获取验证码次数过多，请明天再试',
  smsCarrierPhoneRefused: () => '该手机号无法接收本店的短信，请检查号码或换一个号码',
  smsCarrierCannotSend: () => '本店暂时无法发送验证码，请稍后再试',
  smsCarrierNoAnswer: () => '短信服务暂无响应，请 1 分钟后再试',
  brandMismatch: (p) => `品牌名称不是本店的品牌（${p.brand}）`,
  saleNotFound: () => '本店没有这件商品',
  saleIdNotFound: () => '找不到这件商品',
  saleNotOpen: (p) => `尚未开售，开售时间：${zhTime(p.at)}`,
  saleEnded: () => '销售已结束',
  saleOverLimit: (p) => `数量：每人限购 ${p.limit} 份`,
  saleSoldOut: () => '已售罄',
  saleOnlyLeft: (p) => `数量：仅剩 ${p.left} 份`,
  saleLimitHeld: (p) => `数量：每人限购 ${p.limit} 份，您的订单已占用了限购份数`,
  orderNotFound: () => '找不到您的这笔订单',
  orderNotCancellable: (p) => `该订单${p.paid ? '已支付' : '已取消'}，无法取消`,
  orderNotPayable: (p) => `该订单${p.paid ? '已支付' : '已取消'}，无法支付`,
  paymentNotFound: () => '找不到您的这笔支付',
  payProviderNone: () => '本店的支付方式都不支持在当前浏览器中付款，请换用手机浏览器或微信打开',
  payProviderChoose: () => '请选择支付方式',
  payProviderNotOffered: () => '本店暂不支持这种支付方式，请选择其他支付方式',
  payProviderWrongClient: () => '这种支付方式不支持在当前浏览器中付款，请选择其他支付方式',
  payNeedsOpenid: () => '在微信内支付需要先获取您的微信身份，请授权后重试',
  payProviderBusy: () => '支付服务繁忙或暂时无法连接，请稍后再试',
  payProviderRefused: () => '支付机构拒绝了这笔支付，请稍后再试或换一种支付方式',
  sandboxOff: () => '演示收银台已关闭，请使用已配置的支付方式',
  idempotencyKeyReused: () => '请求编号已被其他请求使用，请刷新页面后重试',
  boxNotFound: () => '找不到您的这个盲盒',
  boxOpen: () => '这个盲盒已经打开过了',
  boxEmpty: () => '这个盲盒的奖品已全部发完，请联系店铺',
  codeFlood: () => '兑换码输错次数过多，请 1 小时后再试',
  codeWrong: () => '兑换码无效，或已被使用',
  giftNotFound: () => '本店没有这份礼物',
  giftNotOpen: (p) => `领取尚未开始，开始时间：${zhTime(p.at)}`,
  giftEnded: () => '领取活动已结束',
  giftNeedsCode: () => '请输入兑换码',
  giftHoldersOnly: (p) => `仅持有「${p.name}」的用户可以领取`,
  giftReceived: () => '您已经领取过这份礼物',
  giftSoldOut: () => '礼物已被领完',
  exchangeNotFound: () => '本店没有这个兑换活动',
  exchangeTwice: () => '同一件藏品被重复选择',
  exchangeNotYours: () => '所选藏品不属于您，或不属于本店',
  exchangeNotAsked: () => '所选藏品不在本次兑换所需之列',
  exchangeWrongCount: (p) => `本次兑换需要 ${p.quantity} 件「${p.name}」，已选 ${p.got} 件`,
  exchangeNotOpen: (p) => `兑换尚未开始，开始时间：${zhTime(p.at)}`,
  exchangeEnded: () => '兑换活动已结束',
  exchangeNoRecipe: () => '该兑换尚未开放',
  exchangeNeedsCode: () => '请输入兑换码',
  exchangeLimit: (p) => `每人限兑 ${p.limit} 次，您已达到上限`,
  exchangeSoldOut: () => '可兑换数量已全部兑完',
  exchangeShort: (p) => `本次兑换需要 ${p.quantity} 件「${p.name}」，您只有 ${p.have} 件可用`,
  chainStoreUnknown: () => '门店不属于本店铺，请选择您购买时所在的门店',
  chainCampaignNotFound: () => '本店没有这个上链活动',
  chainNotOpen: (p) => `「${p.name}」尚未开始，开始时间：${zhTime(p.at)}`,
  chainEnded: (p) => `「${p.name}」已结束`,
  chainDone: () => '您已经用这个码上过链了',
  chainWrongType: (p) => `这是${p.is === 2 ? '证书码' : '商品码'}，不是${p.asked === 2 ? '证书码' : '商品码'}`,
  chainRecordNotFound: () => '找不到您在本店的这条上链记录',
  trackingFlood: (p) => `上报记录过多，请 ${waitText(p.waitMs, 'zh-CN')}后再试`,
  payStarting: () => '这笔订单的支付正在发起，请稍后再试',
  payTooManyAttempts: (p) => `这笔订单已发起 ${p.limit} 次支付，已达上限，请取消订单后重新购买`,
  payCreateFlood: (p) => `您发起支付过于频繁，请 ${waitText(p.waitMs, 'zh-CN')}后再试`,
};

const CATALOGUES: Record<Locale, Catalogue> = { en, 'zh-CN': zhCN };

/** A refusal in words: a catalogue key and its values, rendered in the caller's locale when the answer is sent. */
export type ApiMessage = { [K in ApiMessageKey]: { key: K; params: ParamsOf<K> } }[ApiMessageKey];

/** `msg('saleOnlyLeft', { left: 3 })`: a message of the catalogue, its values checked against the key's. */
export function msg<K extends ApiMessageKey>(key: K, ...params: ParamsOf<K> extends undefined ? [] : [ParamsOf<K>]): ApiMessage {
  return { key, params: params[0] } as ApiMessage;
}

/** The message in a locale's words. */
export function renderMessage(message: ApiMessage, locale: Locale): string {
  const render = CATALOGUES[locale][message.key] as (p: unknown) => string;
  return render(message.params);
}

/** Every key with its text in each locale (tests check no locale falls back to another's words). */
export const API_MESSAGE_KEYS = Object.keys(en) as ApiMessageKey[];

/** The buyer's words for the fields of the API's inputs, for Chinese field errors; others keep their API name. */
const ZH_FIELDS: Record<string, string> = {
  phone: '手机号',
  code: '验证码或兑换码',
  authCode: '验证码',
  quantity: '数量',
  saleId: '商品',
  orderNo: '订单号',
  paymentNo: '支付单号',
  id: '编号',
  campaignId: '活动',
  offerId: '礼物',
  exchangeId: '兑换活动',
  holdingIds: '所选藏品',
  storeCode: '门店',
  type: '码的类型',
  brandName: '品牌名称',
  page: '页码',
  pageSize: '每页数量',
  idempotencyKey: '请求编号',
  answer: '答案',
  x: '滑块位置',
  track: '拖动轨迹',
  body: '请求内容',
  records: '上报记录',
};

/** What a zod issue says, in words that fit every field (Chinese; the English ones are the schemas' own). */
export type InputIssue = { path: PropertyKey[]; code: string; input?: unknown; origin?: string; minimum?: unknown; maximum?: unknown };

function zhIssue(issue: InputIssue): string {
  const bound = (value: unknown) => String(value);
  const unit = issue.origin === 'string' ? ' 个字符' : issue.origin === 'array' || issue.origin === 'set' ? ' 项' : '';
  switch (issue.code) {
    case 'invalid_type':
      return issue.input === undefined ? '不能为空' : '类型不正确';
    case 'too_small':
      return issue.origin === 'string' && issue.minimum === 1 ? '不能为空' : `不能少于 ${bound(issue.minimum)}${unit}`;
    case 'too_big':
      return `不能超过 ${bound(issue.maximum)}${unit}`;
    case 'invalid_format':
      return '格式不正确';
    case 'invalid_value':
      return '不是可选的值';
    case 'unrecognized_keys':
      return '含有不认识的字段';
    default:
      return '填写不正确';
  }
}

/** Input problems as one line, "field: why; field: why" (DESIGN §5), in the caller's locale. */
export function describeInput(issues: (InputIssue & { message: string })[], locale: Locale): string {
  return issues
    .map((issue) => {
      const field = issue.path.length ? issue.path.map(String).join('.') : 'body';
      if (locale === 'en') return `${field}: ${issue.message}`;
      const name = issue.path.findLast((p) => typeof p === 'string');
      return `${ZH_FIELDS[String(name ?? 'body')] ?? field}：${zhIssue(issue)}`;
    })
    .join(locale === 'en' ? '; ' : '；');
}
