import 'server-only';
import { and, desc, eq } from 'drizzle-orm';
import { z } from 'zod';
import { orders, payments } from '../db/schema';
import { procedure, userScope } from '../procedure/procedure';
import { AppError } from '../procedure/errors';
import { env, PAYMENT_PROVIDER_NAMES, publicOrigin } from '../env';
import { getOrder } from '../order/service';
import type { ProcedureContext } from '../procedure/procedure';
import { PAYMENT_LIMITS, queryPayment, receiveNotification, sandboxPaymentInfo, startPayment, type Payer } from './service';
import { SANDBOX_SIGNATURE_HEADER } from './sandbox';
import { channelProviders, configuredProviders, sandboxOf } from './providers';
import { payClientOf } from './clients';
import type { PaymentProvider } from './provider';
import { readWechatOpenid, wechatOauthStartPath } from './wechat-oauth';
import { hit } from '../rate-limit/rate-limit';
import { forwardedHttps } from '../security/headers';
import type { UserScope } from '../procedure/scope';
import { orderNoSchema, orderViewSchema } from '../order/schema';
import { PAYMENT_NO } from '../order/status';
import { sandboxCompleteSchema, sandboxPaymentSchema, startedPaymentSchema } from './schema';
import { msg } from '../procedure/messages';
import { domainSettings, publicHostOf } from '../channel/domains';
import { REASON } from '../procedure/reasons';

const paymentNoSchema = z.string({ error: 'is required and must be a string' }).regex(PAYMENT_NO, 'is not a payment number');

/**
 * Paying (DESIGN §7): a payment for an unpaid order through the configured provider, the fallback query, and the
 * sandbox cashier's calls. Every call needs the buyer's session. Payloads in docs/api.md.
 */
export const paymentProcedures = {
  '/market/api/pay/create': procedure({
    summary:
      "Opens a payment for an unpaid order through the chosen provider (one the channel offers that takes payments in the buyer's browser; optional when only one does) and answers how to pay: payUrl, and for WeChat Pay inside WeChat the JSAPI sheet's parameters. The order's open payment is answered again while it is young (same provider and browser); at most 8 payments per order and 20 calls per buyer in 10 minutes (429).",
    auth: 'buyer',
    input: z.object({
      orderNo: orderNoSchema,
      provider: z.enum(PAYMENT_PROVIDER_NAMES, { error: `must be one of ${PAYMENT_PROVIDER_NAMES.join(', ')}` }).optional(),
    }),
    output: startedPaymentSchema,
    handler: async (ctx, input) => {
      const scope = await userScope(ctx);
      // Counted first, before the order is looked up or any provider called (issue 29).
      await limitPayCreate(scope);
      // The buyer's order or nothing: another buyer's order and a made-up number get the same 404, whatever else the
      // call asks (issue 29: the order number is not an oracle).
      const order = await getOrder(scope, input.orderNo);
      const channel = await ctx.channel();
      const { provider, payer } = choosePayment(
        ctx,
        channelProviders(ctx.db, channel),
        channel.paymentProviders,
        input.provider ?? (await lastProviderOf(scope, order.orderNo)),
        input.provider === undefined,
      );
      return startPayment(
        {
          ...scope,
          channelKey: ctx.channelKey,
          provider,
          providers: configuredProviders(ctx.db),
          payer,
          // Return URLs on the channel's primary host (issue 31), where the buyer's pages are.
          origin: publicOrigin(await publicHostOf(ctx.db, channel, domainSettings(), ctx.now)),
        },
        order.orderNo,
      );
    },
  }),
  '/market/api/pay/query': procedure({
    summary:
      'The order as it stands after asking the provider about its newest open payment (the fallback for a late notification); the provider is asked at most once per 5 s per payment.',
    auth: 'buyer',
    input: z.object({ orderNo: orderNoSchema }),
    output: orderViewSchema,
    handler: async (ctx, input) => queryPayment({ ...(await userScope(ctx)), providers: configuredProviders(ctx.db) }, input.orderNo),
  }),
  '/market/api/pay/sandbox/detail': procedure({
    summary: 'Sandbox cashier: the payment to show (amount, what is bought, status). Only when PAYMENT_PROVIDERS lists sandbox.',
    auth: 'buyer',
    input: z.object({ paymentNo: paymentNoSchema }),
    output: sandboxPaymentSchema,
    handler: async (ctx, input) => {
      requireSandbox(ctx);
      return sandboxPaymentInfo(await userScope(ctx), input.paymentNo);
    },
  }),
  '/market/api/pay/sandbox/complete': procedure({
    summary: "Sandbox cashier's buttons: records pay or fail as the provider would and delivers its signed notification.",
    auth: 'buyer',
    input: z.object({ paymentNo: paymentNoSchema, outcome: z.enum(['paid', 'failed'], { error: "must be 'paid' or 'failed'" }) }),
    output: sandboxCompleteSchema,
    handler: async (ctx, input) => {
      const provider = requireSandbox(ctx);
      const scope = await userScope(ctx);
      const info = await sandboxPaymentInfo(scope, input.paymentNo);
      const { body, signature } = await provider.settle({
        paymentNo: input.paymentNo,
        amount: info.amount,
        outcome: input.outcome,
        now: ctx.now,
      });
      // Delivered the way a provider's server delivers it: the same verification as /api/pay/notify/sandbox.
      const outcome = await receiveNotification(ctx.db, provider, body, new Headers({ [SANDBOX_SIGNATURE_HEADER]: signature }), ctx.now);
      return { outcome, order: await getOrder(scope, info.order.orderNo) };
    },
  }),
};

function requireSandbox(ctx: ProcedureContext) {
  const sandbox = sandboxOf(ctx.db);
  if (!sandbox) throw new AppError(404, msg('sandboxOff'));
  return sandbox;
}

/**
 * The provider a payment goes through: the one asked for, which must be offered by the channel (and run by the
 * deployment) and take payments in the buyer's browser (User-Agent: WeChat JSAPI only inside WeChat, …); or, when
 * none is asked for, the only one that fits. 400 names the field otherwise.
 */
function choosePayment(
  ctx: ProcedureContext,
  offered: PaymentProvider[],
  listed: readonly string[],
  asked: string | undefined,
  /** `asked` is the order's last payment's provider, not the buyer's choice: used only if it still fits. */
  fallback = false,
): { provider: PaymentProvider; payer: Payer } {
  const client = payClientOf(ctx.headers.get('user-agent') ?? '');
  const fitting = offered.filter((p) => p.clients.includes(client));
  const names = (list: PaymentProvider[]) => list.map((p) => p.name).join(', ') || 'none';
  let provider: PaymentProvider;
  if (fallback) asked = fitting.some((p) => p.name === asked) ? asked : undefined;
  if (asked === undefined) {
    if (fitting.length !== 1) {
      throw new AppError(
        400,
        fitting.length === 0 ? msg('payProviderNone', { client }) : msg('payProviderChoose', { names: names(fitting) }),
        { reason: REASON.provider, offered: fitting.map((p) => p.name) },
      );
    }
    provider = fitting[0]!;
  } else {
    const found = offered.find((p) => p.name === asked);
    if (!found) {
      throw new AppError(
        400,
        msg('payProviderNotOffered', { asked, why: listed.includes(asked) ? 'notRun' : 'notOffered', offered: names(offered) }),
        {
          reason: REASON.provider,
          offered: fitting.map((p) => p.name),
        },
      );
    }
    if (!found.clients.includes(client)) {
      throw new AppError(400, msg('payProviderWrongClient', { asked, client, here: names(fitting) }), {
        reason: REASON.provider,
        offered: fitting.map((p) => p.name),
      });
    }
    provider = found;
  }
  const payer: Payer = { client, ip: ctx.ip };
  if (provider.name === 'wechatpay' && client === 'wechat') {
    // JSAPI pays as the buyer's WeChat identity: learnt once through WeChat's OAuth and kept in a cookie.
    // Only this host's own cookie (`__Host-` on HTTPS), signed by this server for this app id and channel; anything else,
    // malformed included, reads as no identity (issue 29).
    const e = env();
    payer.openid = readWechatOpenid(ctx.headers.get('cookie'), {
      secret: e.PAYMENT_SECRET,
      appid: e.WECHATPAY_APPID ?? '',
      channelKey: ctx.channelKey,
      https: forwardedHttps(ctx.headers),
      now: ctx.now,
    });
    if (!payer.openid) {
      throw new AppError(400, msg('payNeedsOpenid'), {
        reason: REASON.openid,
        authorizeUrl: wechatOauthStartPath('/pay/fail'),
      });
    }
  }
  return { provider, payer };
}

/** The provider the order's latest payment went through ("continue paying" keeps the buyer's earlier choice). */
async function lastProviderOf(scope: UserScope, orderNo: string): Promise<string | undefined> {
  const [last] = await scope.db
    .select({ provider: payments.provider })
    .from(payments)
    .innerJoin(orders, eq(orders.id, payments.orderId))
    .where(and(eq(orders.orderNo, orderNo), eq(orders.userId, scope.userId), eq(orders.channelId, scope.channelId)))
    .orderBy(desc(payments.id))
    .limit(1);
  return last?.provider;
}

/**
 * pay/create per buyer: PAYMENT_LIMITS.perBuyer calls per window (issue 29). Each call may open a payment at the
 * provider, which spends the merchant's API quota; a buyer paying normally makes one or two.
 */
async function limitPayCreate(scope: UserScope): Promise<void> {
  const counted = await hit(
    scope.db,
    { bucket: `pay-create:user:${scope.userId}`, max: PAYMENT_LIMITS.perBuyer, windowMs: PAYMENT_LIMITS.perBuyerWindowMs },
    scope.now,
  );
  if (counted.allowed) return;
  // Not given back: a buyer who keeps calling stays refused until the window ends. Logged once per window.
  if (counted.count === PAYMENT_LIMITS.perBuyer + 1) {
    console.warn(
      `[pay] buyer ${scope.userId} made ${PAYMENT_LIMITS.perBuyer} pay/create calls within 10 minutes; refused until ${counted.resetAt.toISOString()}`,
    );
  }
  throw new AppError(429, msg('payCreateFlood', { waitMs: counted.resetAt.getTime() - scope.now.getTime() }), { reason: REASON.flood });
}
