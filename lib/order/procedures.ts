import 'server-only';
import { dropMeter } from '../monitor/drop-meter';
import { z } from 'zod';
import { procedure, userScope } from '../procedure/procedure';
import { pageSchema, pagingSchema } from '../procedure/paging';
import { idempotencyKeySchema, idSchema } from '../procedure/schemas';
import { env } from '../env';
import { parseRiskPolicy } from '../channel/risk-policy';
import { consumeTicket } from '../auth/captcha';
import { AppError, API_CODES } from '../procedure/errors';
import { msg } from '../procedure/messages';
import { REASON } from '../procedure/reasons';
import { readBuyRiskSignals, scoreBuyRisk } from './buy-risk';
import { cancelOrder, createOrder, findByKey, getOrder, listOrders, recordOrderDevice } from './service';
import { deviceIdFrom, deviceKey } from '../security/device';
import { orderNoSchema, orderViewSchema } from './schema';
import { payStateSchema, readPayState } from './pay-state';
import { apiLocale } from '../i18n/locale';

/**
 * The buy's input (`order/create`): exported for the buy lane's gate (lib/order/buy-gate.ts), which answers at the door
 * only a call the buy would take as valid input.
 */
export const buyInputSchema = z.object({
  saleId: idSchema,
  quantity: z
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .min(1, 'must be 1 or more')
    .max(100, 'must be 100 or less')
    .default(1),
  idempotencyKey: idempotencyKeySchema,
  /** The slider captcha's single-use ticket, when a buy was answered 1013 captchaRequired (issue 33). */
  captchaTicket: z.string({ error: 'must be a string' }).max(128, 'must be at most 128 characters').optional(),
  /** A waiting room's admission (issue 35; `/market/api/queue/position`), required for a sale through one. */
  admission: z.string({ error: 'must be a string' }).max(200, 'must be at most 200 characters').optional(),
});

/**
 * Orders (the issue on buying; DESIGN §7): buy, list, one order, cancel. Every call needs the buyer's session and
 * touches only the buyer's own orders on the host's channel. Payloads in docs/api.md.
 */
export const orderProcedures = {
  '/market/api/order/create': procedure({
    summary: 'Buys: reserves copies of a sale for the buyer and creates an unpaid order. The same idempotencyKey returns the same order.',
    shed: true,
    auth: 'buyer',
    input: buyInputSchema,
    output: orderViewSchema,
    handler: async (ctx, input) => {
      dropMeter().countBuyCall(input.saleId, Date.now()); // the live drop view's buy calls per second (issue 32)
      const [channel, user] = await Promise.all([ctx.channel(), ctx.user()]);
      const scope = await userScope(ctx);
      // A higher-risk buy passes the captcha first (issue 33; docs/security.md, "Captcha at the buy tap"). Nothing is
      // read when the channel's captcha is off; a ticket is spent only when the buy needs one.
      if (parseRiskPolicy(channel.riskPolicy).captcha) {
        const signals = await readBuyRiskSignals(ctx.db, {
          channelId: channel.id,
          accountCreatedAt: user.createdAt,
          ip: ctx.ip,
          now: ctx.now,
        });
        const risk = scoreBuyRisk(signals);
        if (risk.captcha) {
          // A tap sent again after its order was made (its payment did not open) is answered with that order, not asked again.
          const made = await findByKey(scope, input);
          if (made) return made;
          if (!(await consumeTicket({ db: ctx.db, now: ctx.now, channelId: channel.id }, input.captchaTicket))) {
            // What the operator sees (docs/security.md): why, never who (no phone, no address).
            console.info(`[buy risk] ${channel.key}: captcha asked at the buy tap (${risk.signals.join(', ')})`);
            throw new AppError(API_CODES.CAPTCHA_REQUIRED, msg('buyCaptchaRequired'), { reason: REASON.captchaRequired });
          }
        }
      }
      const order = await createOrder(scope, input, env().ORDER_PAY_TIMEOUT_SECONDS * 1000);
      // issue 36 (docs/sharing.md): the buying device, as a keyed hash, so the sharer whose link it followed is credited.
      // The order is made by now: a failure here costs the credit, never the buy.
      const device = deviceIdFrom(ctx.headers.get('cookie'));
      if (device) await recordOrderDevice(ctx.db, order.orderNo, deviceKey(device, env().AUTH_SECRET)).catch(() => undefined);
      return order;
    },
  }),
  '/market/api/saleRecord/payState': procedure({
    summary:
      "The buyer's own part of the pay page (issue 34): how many more they may buy, their unpaid order of the sale, where they stand on the channel's real-name and age rules, whether their WeChat identity is known.",
    auth: 'buyer',
    input: z.object({ id: idSchema }),
    output: payStateSchema,
    handler: async (ctx, input) => {
      const scope = await userScope(ctx);
      const channel = scope.channel!;
      return readPayState({ ...scope, channel }, input.id, {
        locale: apiLocale(ctx.headers.get('accept-language'), channel.locale),
        cookieHeader: ctx.headers.get('cookie'),
      });
    },
  }),
  '/market/api/order/list': procedure({
    summary: "The buyer's orders on this channel, newest first, paged; statusTrade filters (0 to pay, 1 paid, 2 cancelled, 3 closed).",
    auth: 'buyer',
    input: pagingSchema.extend({
      statusTrade: z.union([z.literal(0), z.literal(1), z.literal(2), z.literal(3)], { error: 'must be 0, 1, 2 or 3' }).optional(),
    }),
    output: pageSchema(orderViewSchema),
    handler: async (ctx, input) => listOrders(await userScope(ctx), input),
  }),
  '/market/api/order/detail': procedure({
    summary: "One of the buyer's orders, with the edition numbers it minted.",
    auth: 'buyer',
    input: z.object({ orderNo: orderNoSchema }),
    output: orderViewSchema,
    handler: async (ctx, input) => getOrder(await userScope(ctx), input.orderNo),
  }),
  '/market/api/order/cancel': procedure({
    summary: "Cancels one of the buyer's unpaid orders; its copies go back on sale.",
    auth: 'buyer',
    input: z.object({ orderNo: orderNoSchema }),
    output: orderViewSchema,
    handler: async (ctx, input) => cancelOrder(await userScope(ctx), input.orderNo),
  }),
};
