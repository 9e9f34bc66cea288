import 'server-only';
import { z } from 'zod';
import type { ChannelRow } from '../db/schema';
import { env } from '../env';
import { channelAgreements } from '../channel/agreement-facts';
import { parseLabels } from '../channel/labels';
import {
  giftingPolicySchema,
  identityPolicyColumn,
  identityPolicySchema,
  riskPolicyColumn,
  riskPolicySchema,
} from '../channel/buyer-rules';
import { NEW_CHANNEL_IDENTITY_POLICY, parseIdentityPolicy } from '../channel/identity-policy';
import { parseRiskPolicy } from '../channel/risk-policy';
import {
  attributesSchema,
  changeChannel,
  channelProfileSchema,
  channelTextsSchema,
  complianceSchema,
  createChannel,
  customerServiceSchema,
  labelsSchema,
  paymentSchema,
  smsSenderSchema,
  timeZoneSchema,
  type ChannelColumns,
} from '../channel/operator';
import { procedure } from '../procedure/procedure';
import { AppError } from '../procedure/errors';
import { msg } from '../procedure/messages';
import { ANY_ROLE, type OperatorRule } from '../procedure/roles';
import { auditCall } from './audit';
import { toConsoleChannel } from './channels';
import { hasWechatSecret, WECHAT_APP_ID } from '../wechat/account';

/**
 * Creating, pausing and configuring a channel from the console (issue 31, "Channels"). Every write is recorded in the
 * audit trail with the changed fields before and after, in the write's transaction, and dropped from every process's
 * caches with its commit (lib/channel/operator.ts, writeInvalidating).
 */

const text = (max: number) => z.string({ error: 'is required and must be a string' }).max(max, `must be ${max} characters or less`);
/** spec §1: a key is what a host reads as, upper-case letters and digits. */
const newChannelKey = text(32)
  .trim()
  .toUpperCase()
  .regex(/^[A-Z0-9]{2,32}$/, 'must be 2 to 32 letters and digits (the store’s host is the key in lower case)');
const channelKey = text(64).regex(/^[A-Z0-9]{1,64}$/, 'must be a channel key: upper-case letters and digits');
/** spec §1: 1 the store is open; 0 its root screen is hidden (paused). */
const status = z.union([z.literal(0), z.literal(1)], { error: 'must be 1 (open) or 0 (paused)' });

const consoleChannel = z.object({
  key: z.string(),
  name: z.string(),
  brandName: z.string(),
  status: z.number(),
  labels: z.array(z.number()),
  hosts: z.array(z.string()),
});

/** issue 36: the share card's official account, an AppID as WeChat writes it, or null (empty: none). */
const wechatAccountSchema = z.strictObject({
  wechatAppId: z.preprocess(
    (value) => (typeof value === 'string' && value.trim() === '' ? null : typeof value === 'string' ? value.trim() : value),
    z
      .string({ error: 'must be an AppID or null' })
      .regex(WECHAT_APP_ID, 'must be an AppID: wx and 16 letters or digits (the official account’s 设置与开发 › 基本配置 page)')
      .nullable(),
  ),
});

/** Who changes a channel's settings: an owner, or a manager the channel is granted to (support reads only). */
const EDITORS: OperatorRule = { roles: ['owner', 'manager'], channel: 'input' };

/** The Settings tab's reading of a channel (what the console shows and what each section saves). */
const settingsView = z.object({
  key: z.string(),
  status: z.number(),
  hosts: z.array(z.string()),
  profile: z.object({
    name: z.string(),
    brandName: z.string(),
    locale: z.enum(['en', 'zh-CN']).nullable(),
    timeZone: z.string(),
    labels: z.array(z.number()),
    attributes: attributesSchema,
    appScheme: z.string().nullable(),
    appDownloadUrl: z.string().nullable(),
  }),
  texts: z.object({
    marketText: z.string(),
    buyText: z.string(),
    exchangeText: z.string(),
    privacyText: z.string(),
    salesStrategyText: z.string(),
  }),
  /** The agreements a buyer reads while the channel's own text is empty: the templates, in the channel's language. */
  defaultAgreements: z.object({ privacyText: z.string(), salesStrategyText: z.string() }),
  customerService: z.object({
    phone: z.string().nullable(),
    hours: z.string().nullable(),
    email: z.string().nullable(),
    url: z.string().nullable(),
  }),
  sms: z.object({ smsSignName: z.string().nullable(), smsTemplateId: z.string().nullable() }),
  payment: z.object({ paymentProviders: z.array(z.string()), deploymentProviders: z.array(z.string()) }),
  compliance: z.object({
    icpFiling: z.string().nullable(),
    publicSecurityFiling: z.string().nullable(),
    blockchainFiling: z.string().nullable(),
  }),
  /** The buyers' rules (issue 33), as the store keeps them (a stored value it does not know reads as not asked). */
  identityPolicy: z.object({
    realName: z.object({ buy: z.boolean(), receive: z.boolean(), exchange: z.boolean(), chainUp: z.boolean() }),
    minAge: z.number().nullable(),
    blindBoxMinAge: z.number().nullable(),
  }),
  riskPolicy: z.object({
    unpaid: z.object({ limit: z.number(), withinHours: z.number(), blockHours: z.number() }),
    captcha: z.boolean(),
  }),
  /** issue 36: gifts between buyers, the holding period in hours. */
  gifting: z.object({ holdingHours: z.number() }),
  /** issue 36: the WeChat share card's official account; whether the deployment holds its AppSecret (never the secret). */
  wechat: z.object({ appId: z.string().nullable(), secretKnown: z.boolean() }),
});
export type ChannelSettingsView = z.output<typeof settingsView>;

/** A channel's settings as the console shows them. */
export function channelSettingsView(row: ChannelRow): ChannelSettingsView {
  const locale = row.locale === 'en' || row.locale === 'zh-CN' ? row.locale : null;
  const templates = channelAgreements({ brandName: row.brandName, privacyText: '', salesStrategyText: '' }, locale ?? 'zh-CN');
  const service = row.customerService ?? {};
  return {
    key: row.key,
    status: row.status,
    hosts: toConsoleChannel(row).hosts,
    profile: {
      name: row.name,
      brandName: row.brandName,
      locale,
      timeZone: row.timeZone,
      labels: parseLabels(row.labelList),
      attributes: row.attributes,
      appScheme: row.appScheme,
      appDownloadUrl: row.appDownloadUrl,
    },
    texts: {
      marketText: row.marketText,
      buyText: row.buyText,
      exchangeText: row.exchangeText,
      privacyText: row.privacyText,
      salesStrategyText: row.salesStrategyText,
    },
    defaultAgreements: templates,
    customerService: { phone: service.phone ?? null, hours: service.hours ?? null, email: service.email ?? null, url: service.url ?? null },
    sms: { smsSignName: row.smsSignName, smsTemplateId: row.smsTemplateId },
    payment: { paymentProviders: row.paymentProviders, deploymentProviders: [...env().PAYMENT_PROVIDERS] },
    compliance: { icpFiling: row.icpFiling, publicSecurityFiling: row.publicSecurityFiling, blockchainFiling: row.blockchainFiling },
    identityPolicy: parseIdentityPolicy(row.identityPolicy),
    riskPolicy: parseRiskPolicy(row.riskPolicy),
    gifting: { holdingHours: row.giftHoldingHours },
    wechat: { appId: row.wechatAppId, secretKnown: row.wechatAppId !== null && hasWechatSecret(row.wechatAppId) },
  };
}

/** One section of the Settings tab: its schema (with the channel named) and the columns it sets. */
function settingsSection<S extends z.ZodObject>(
  path: string,
  summary: string,
  shape: S,
  columns: (input: z.output<S>) => ChannelColumns,
  rule: OperatorRule = EDITORS,
) {
  return procedure({
    summary,
    auth: 'operator',
    operator: { ...rule, writes: 'changes' },
    input: shape.extend({ channel: channelKey }),
    output: settingsView,
    handler: async (ctx, input) => {
      const channel = await ctx.operatorChannel();
      const { channel: _key, ...fields } = input as z.output<S> & { channel: string };
      void _key;
      const row = await changeChannel(ctx.db, channel.key, columns(fields as z.output<S>), auditCall(ctx, path, input));
      if (!row) throw new AppError(404, msg('opsChannelNotGranted'));
      return channelSettingsView(row);
    },
  });
}

export const channelSettingsProcedures = {
  '/ops/api/channel/create': procedure({
    summary:
      'An owner creates a channel: key (spec §1; its host is the key in lower case under the brand domain), name, brand name, language, time zone, labels, attributes and status. Served at once on its key host.',
    auth: 'operator',
    operator: { roles: ['owner'], channel: 'none', writes: 'creates' },
    input: z.strictObject({
      key: newChannelKey,
      name: channelProfileSchema.shape.name,
      brandName: channelProfileSchema.shape.brandName,
      locale: channelProfileSchema.shape.locale,
      timeZone: timeZoneSchema,
      labels: labelsSchema,
      attributes: attributesSchema.default({}),
      status: status.default(1),
    }),
    output: consoleChannel,
    handler: async (ctx, input) => {
      const row = await createChannel(
        ctx.db,
        input.key,
        {
          name: input.name,
          brandName: input.brandName,
          locale: input.locale,
          timeZone: input.timeZone,
          labelList: [...input.labels].sort().join(','),
          attributes: input.attributes,
          status: input.status,
          // issue 33: a channel made in the console keeps blind boxes to adults from the start (docs/decisions.md).
          identityPolicy: NEW_CHANNEL_IDENTITY_POLICY,
        },
        { brandWord: env().BRAND_WORD, operatorHost: env().OPERATOR_HOST },
        auditCall(ctx, '/ops/api/channel/create', input),
      );
      return toConsoleChannel(row);
    },
  }),
  '/ops/api/channel/setStatus': procedure({
    summary: 'Opens (1) or pauses (0) a channel: a paused channel’s store hides its root screen (spec §1) on every server at once.',
    auth: 'operator',
    operator: { ...EDITORS, writes: 'changes' },
    input: z.strictObject({ channel: channelKey, status }),
    output: consoleChannel,
    handler: async (ctx, input) => {
      const channel = await ctx.operatorChannel();
      const row = await changeChannel(ctx.db, channel.key, { status: input.status }, auditCall(ctx, '/ops/api/channel/setStatus', input));
      if (!row) throw new AppError(404, msg('opsChannelNotGranted'));
      return toConsoleChannel(row);
    },
  }),
  '/ops/api/channel/settings': procedure({
    summary: 'A channel’s settings as the Settings tab shows them (support reads them too).',
    auth: 'operator',
    operator: { roles: ANY_ROLE, channel: 'input' },
    input: z.strictObject({ channel: channelKey }),
    output: settingsView,
    handler: async (ctx) => channelSettingsView(await ctx.operatorChannel()),
  }),
  '/ops/api/channel/saveProfile': settingsSection(
    '/ops/api/channel/saveProfile',
    'Saves a channel’s name, brand name, language, time zone, labels, attributes, app scheme and download address.',
    channelProfileSchema,
    ({ labels, ...rest }) => ({ ...rest, labelList: [...labels].sort().join(',') }),
  ),
  '/ops/api/channel/saveTexts': settingsSection(
    '/ops/api/channel/saveTexts',
    'Saves a channel’s market, buy and exchange texts and its own agreements (empty: the template).',
    channelTextsSchema,
    (texts) => texts,
  ),
  '/ops/api/channel/saveCustomerService': settingsSection(
    '/ops/api/channel/saveCustomerService',
    'Saves how buyers reach the channel’s customer service: phone, hours, e-mail, web page (each optional).',
    customerServiceSchema,
    (service) => ({
      customerService: Object.fromEntries(Object.entries(service).filter(([, v]) => v !== null)) as Record<string, string>,
    }),
  ),
  '/ops/api/channel/saveSmsSender': settingsSection(
    '/ops/api/channel/saveSmsSender',
    'Saves the channel’s SMS sign name and template id at the carrier (null: the deployment’s).',
    smsSenderSchema,
    (sms) => sms,
  ),
  '/ops/api/channel/savePayment': settingsSection(
    '/ops/api/channel/savePayment',
    'Saves the payment providers the channel offers, in order (empty: every provider the deployment runs). A sensitive write.',
    paymentSchema,
    (payment) => payment,
    // issue 31: payment settings are a sensitive write (a fresh sign-in).
    { ...EDITORS, reauth: true },
  ),
  '/ops/api/channel/saveCompliance': settingsSection(
    '/ops/api/channel/saveCompliance',
    'Saves the compliance footer: ICP, public security and blockchain information service filing numbers (empty: not shown).',
    complianceSchema,
    (filings) => filings,
  ),
  // issue 33: the buyers' rules. Owners and the channel's managers, as for every section (support reads them).
  '/ops/api/channel/saveIdentityPolicy': settingsSection(
    '/ops/api/channel/saveIdentityPolicy',
    'Saves the channel’s real-name and age rules: real-name before buy, receive, exchange and chain-up; the minimum age (14, 16, 18 or null); blind boxes’ minimum age (18 or null; below 18 is refused: no guardian’s consent is collected).',
    identityPolicySchema,
    (policy) => ({ identityPolicy: identityPolicyColumn(policy) }),
  ),
  '/ops/api/channel/saveRiskPolicy': settingsSection(
    '/ops/api/channel/saveRiskPolicy',
    'Saves the channel’s risk rules at order time: unpaid orders (limit 0–20, 0 off; within 1–168 hours; ordering paused 1–168 hours) and the captcha for higher-risk buys.',
    riskPolicySchema,
    (policy) => ({ riskPolicy: riskPolicyColumn(policy) }),
  ),
  // issue 36: gifts between buyers (docs/gifting.md).
  '/ops/api/channel/saveHoldingPeriod': settingsSection(
    '/ops/api/channel/saveHoldingPeriod',
    'Saves the channel’s gifting rule: the holding period (0–8760 hours, 24 by default) a buyer keeps a collectible after buying or receiving it before they may give it to another buyer.',
    giftingPolicySchema,
    (policy) => ({ giftHoldingHours: policy.holdingHours }),
  ),
  // issue 36: the WeChat share card (docs/wechat.md). Not a sensitive write: an AppID works only with the AppSecret the
  // deployment holds for it, which no operator can set.
  '/ops/api/channel/saveWechatAccount': settingsSection(
    '/ops/api/channel/saveWechatAccount',
    'Saves the WeChat official account (its AppID) whose JS-SDK sets the share card of the channel’s pages inside WeChat; null: none. Its AppSecret is the deployment’s (WECHAT_MP_SECRETS), never sent here.',
    wechatAccountSchema,
    (account) => ({ wechatAppId: account.wechatAppId }),
  ),
};
