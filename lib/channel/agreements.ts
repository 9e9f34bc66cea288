import { createHash } from 'node:crypto';
import type { Locale } from '../i18n/locale';

/**
 * The agreements a buyer accepts at login (spec §2 /agreement/:location, spec §3 privacyText and salesStrategyText):
 * the channel's own text where its operator wrote one, otherwise this store's template in the buyer's language with the
 * channel's brand filled in (issue 17, item 4; docs/decisions.md, "Agreement texts"). Paragraphs are separated by a
 * blank line; one starting with `## ` is a heading, and one whose lines start with `- ` is a list (see agreementBlocks).
 *
 * The figures in the texts are the store's own (how long an unpaid order holds, how long records are kept), so the
 * promise a buyer reads is the one the code keeps.
 */
export type AgreementLocation = 'privacy' | 'salesStrategy';

/** What the texts state as fact, from the store's settings (lib/jobs/retention.ts, ORDER_PAY_TIMEOUT_SECONDS). */
export type AgreementFacts = {
  brandName: string;
  payMinutes: number;
  smsCodeDays: number;
  trackingDays: number;
  endedSessionDays: number;
};

type Template = (facts: AgreementFacts) => string;

const TEMPLATES: Record<Locale, Record<AgreementLocation, Template>> = {
  en: {
    privacy: ({ brandName, smsCodeDays, trackingDays, endedSessionDays }) =>
      [
        `This policy says what ${brandName} ("we") keeps about you when you use this store, why, for how long, and who else sees it. By logging in you agree to it.`,
        `## What we keep`,
        `- Your mobile phone number, to log you in with a text message code and to tell your orders apart from other buyers'.\n- Your orders and payments: what you bought, the amount, the time, and the payment provider's transaction number. We never see or keep your bank card or wallet details; the payment provider handles them.\n- Your collection: the numbered editions you hold, the blind boxes you opened, gifts you received, exchanges and chain-up records.\n- Your real name, where the store asks you to verify it: your legal name and resident ID number, kept encrypted and shown only masked, with your birth date for the store's age rules; the identity check's vendor receives them once to confirm they belong together.\n- Security records: the network address and a device cookie of each login attempt and code request, so that nobody can guess codes or send texts to your number in bulk; and which devices have logged in to this store, so that you still get a code when the store's text messages run short.\n- Page visits: which pages of the store were opened and for how long, without your phone number, to improve the store.`,
        `## How long we keep it`,
        `- Text message codes and their security records: ${smsCodeDays} days.\n- Page visit records: ${trackingDays} days.\n- Ended login sessions: ${endedSessionDays} days after they end.\n- Orders, payments and your collection: as long as your account exists, and afterwards as long as the law on accounting records requires.`,
        `## Who else sees it`,
        `- The text message provider receives your phone number and the code, to deliver the text.\n- The payment provider you choose receives the order number and the amount.\n- Collectibles recorded on a chain carry an edition number and a token identifier that anyone may read; they do not carry your phone number.\n- We do not sell your data, and we share it with nobody else unless the law obliges us.`,
        `## Your rights`,
        `You may ask us what we keep about you, to correct it, or to close your account and delete what the law does not oblige us to keep. Write to ${brandName}'s customer service from the phone number of your account; we answer within 15 working days.`,
        `## Changes`,
        `When this policy changes, the store shows the new text before your next login. The version you accepted stays valid until then.`,
      ].join('\n\n'),
    salesStrategy: ({ brandName, payMinutes }) =>
      [
        `These terms apply to every purchase, gift, exchange and chain-up in the ${brandName} store. By logging in you agree to them.`,
        `## What you buy`,
        `A digital collectible is a numbered edition of a digital work. Buying it gives you the edition in your collection for your own enjoyment; it does not give you the copyright of the work, nor the right to copy it or use it commercially.`,
        `## Buying`,
        `- Each sale shows its price, how many editions are left and how many one buyer may buy. Editions are reserved for you when you place the order.\n- You have ${payMinutes} minutes to pay. An order not paid in time is cancelled and its editions go back on sale.\n- Prices are in yuan and include tax. The edition numbers you receive are given at random among those left.`,
        `## Blind boxes`,
        `A blind box holds one prize drawn at random when you open it. The odds of each prize are published on the box's page before you buy. An opened box cannot be closed again.`,
        `## Refunds`,
        `Because a digital collectible is delivered the moment you pay, a paid order cannot be cancelled or refunded, except where the law provides otherwise. If your payment reaches us after your order was cancelled, nothing is delivered and the payment is refunded automatically to the account you paid from.`,
        `## Gifts, exchanges and chain-up`,
        `Gifts and exchanges follow the rules shown on their pages: who may take part, how many per person, and when. A collectible spent in an exchange is destroyed and cannot be restored. A redeem or chain-up code works once.`,
        `## Fair use`,
        `One person, one account. We may cancel orders or suspend accounts that use automated tools, many accounts or other means to get around the limits, and refund what was paid for the cancelled orders.`,
        `## Questions`,
        `For any question about an order, contact ${brandName}'s customer service with your order number.`,
      ].join('\n\n'),
  },
  'zh-CN': {
    privacy: ({ brandName, smsCodeDays, trackingDays, endedSessionDays }) =>
      [
        `本政策说明${brandName}（以下简称"我们"）在您使用本店时保存哪些信息、为何保存、保存多久，以及还有谁能看到。登录即表示您同意本政策。`,
        `## 我们保存的信息`,
        `- 您的手机号：用于短信验证码登录，并区分您与其他买家的订单。\n- 您的订单与支付：所购商品、金额、时间以及支付机构的交易号。我们不会看到也不会保存您的银行卡或钱包信息，这些由支付机构处理。\n- 您的藏品：您持有的编号藏品、已开启的盲盒、领取的礼物、兑换与上链记录。\n- 您的实名信息（本店要求实名认证时）：真实姓名与居民身份证号，加密保存、仅以脱敏形式显示，并保存出生日期用于年龄规则；实名核验服务商仅接收一次，用于核对二者是否一致。\n- 安全记录：每次登录和获取验证码时的网络地址与设备标识，防止他人猜测验证码或向您的号码批量发送短信；以及曾登录本店的设备，以便本店短信额度紧张时您仍能收到验证码。\n- 页面访问：打开了本店哪些页面及停留时长，不含您的手机号，用于改进本店。`,
        `## 保存期限`,
        `- 短信验证码及其安全记录：${smsCodeDays} 天。\n- 页面访问记录：${trackingDays} 天。\n- 已结束的登录会话：结束后 ${endedSessionDays} 天。\n- 订单、支付与藏品：在您的账户存续期间保存；账户注销后，按会计档案相关法律要求的期限保存。`,
        `## 信息共享`,
        `- 短信服务商会收到您的手机号和验证码，用于发送短信。\n- 您选择的支付机构会收到订单号和金额。\n- 上链的藏品带有任何人都可查看的编号和通证标识，但不含您的手机号。\n- 我们不会出售您的信息；除法律要求外，不会与其他任何方共享。`,
        `## 您的权利`,
        `您可以要求查询我们保存的您的信息、更正信息，或注销账户并删除法律未要求保存的信息。请使用账户绑定的手机号联系${brandName}客服，我们将在 15 个工作日内答复。`,
        `## 政策变更`,
        `本政策变更时，本店会在您下次登录前展示新版本。在此之前，您已同意的版本继续有效。`,
      ].join('\n\n'),
    salesStrategy: ({ brandName, payMinutes }) =>
      [
        `本须知适用于${brandName}店内的每一次购买、领取、兑换和上链。登录即表示您同意本须知。`,
        `## 您购买的是什么`,
        `数字藏品是数字作品的一份编号版本。购买后，该版本进入您的藏品，供您个人欣赏；您不因此获得作品的著作权，也无权复制或商用该作品。`,
        `## 购买`,
        `- 每次发售均标明价格、剩余份数以及每人限购份数。下单时即为您锁定所购份数。\n- 请在 ${payMinutes} 分钟内完成支付。超时未支付的订单将自动取消，锁定的份数重新开放购买。\n- 价格以人民币计，已含税。您获得的编号从剩余编号中随机分配。`,
        `## 盲盒`,
        `每个盲盒在开启时随机抽取一件奖品。各奖品的概率在购买前已在盲盒页面公示。盲盒开启后不可恢复。`,
        `## 退款`,
        `数字藏品在支付完成时即已交付，因此已支付的订单不支持取消或退款，法律另有规定的除外。若您的支付在订单取消后才到账，我们不会交付藏品，款项将自动原路退回。`,
        `## 领取、兑换与上链`,
        `礼物领取与兑换活动按其页面所示规则进行：参与资格、每人次数和时间。兑换中消耗的藏品将被销毁，无法恢复。兑换码和上链码仅可使用一次。`,
        `## 公平使用`,
        `一人一号。对于使用自动化工具、多个账户或其他方式规避限购的行为，我们有权取消订单或暂停账户，并退还被取消订单的款项。`,
        `## 咨询`,
        `如对订单有任何疑问，请携订单号联系${brandName}客服。`,
      ].join('\n\n'),
  },
};

/** The agreement a buyer reads: the channel's own text when it has one, else the template in the buyer's language. */
export function agreementText(ownText: string, location: AgreementLocation, locale: Locale, facts: AgreementFacts): string {
  const own = ownText.trim();
  return own || TEMPLATES[locale][location](facts);
}

/**
 * An agreement text's version (issue 33: "which version of the privacy policy and sales terms each buyer accepted, and
 * when, is kept"): the first 12 hex digits of the SHA-256 of the text exactly as the buyer reads it (agreementText: the
 * channel's own text, or the template with the channel's facts in the buyer's language). An edited text, a changed
 * figure or brand name, or the other language is another version; the same text is always the same one. 48 bits: two
 * texts of one channel sharing a version by chance is out of reach.
 */
export function agreementVersion(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex').slice(0, 12);
}

export type AgreementBlock = { kind: 'heading' | 'paragraph'; text: string } | { kind: 'list'; items: string[] };

/** A text cut into what the page shows: headings (`## `), lists (lines starting with `- `) and paragraphs. */
export function agreementBlocks(text: string): AgreementBlock[] {
  return text
    .split(/\n{2,}/)
    .map((block) => block.trim())
    .filter(Boolean)
    .map((block): AgreementBlock => {
      if (block.startsWith('## ')) return { kind: 'heading', text: block.slice(3).trim() };
      const lines = block.split('\n');
      if (lines.every((line) => line.startsWith('- '))) return { kind: 'list', items: lines.map((line) => line.slice(2).trim()) };
      return { kind: 'paragraph', text: block };
    });
}
