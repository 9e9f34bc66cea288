import 'server-only';
import type { Db } from '../db/client';
import type { ChannelRow } from '../db/schema';
import { env, type Env, type PaymentProviderName } from '../env';
import type { PayOption } from './clients';
import type { PaymentProvider } from './provider';
import { sandboxProvider } from './sandbox';
import { wechatPayConfigFromEnv, wechatPayProvider } from './wechatpay';
import { alipayConfigFromEnv, alipayProvider } from './alipay';

/**
 * The payment providers built into the storefront, by the name PAYMENT_PROVIDERS, channels' `payment_providers` and
 * `payments.provider` use. Adding one is a line here and its name in PAYMENT_PROVIDER_NAMES (lib/env.ts, with its
 * variables and their start-time checks).
 */
const FACTORIES: Record<PaymentProviderName, (db: Db, e: Env) => PaymentProvider> = {
  sandbox: (db, e) => sandboxProvider(db, e.PAYMENT_SECRET),
  wechatpay: (_db, e) => wechatPayProvider(wechatPayConfigFromEnv(e)),
  alipay: (_db, e) => alipayProvider(alipayConfigFromEnv(e)),
};

/** Built providers, per database and environment: a provider holds parsed keys, not worth parsing per request. */
const built = new WeakMap<Db, { env: Env; byName: Map<string, PaymentProvider> }>();

/**
 * The provider of this name if the deployment runs it (PAYMENT_PROVIDERS), else null. A payment is always settled,
 * queried and refunded through its own provider (`payments.provider`), whatever the channel offers today.
 */
export function providerNamed(db: Db, name: string, e: Env = env()): PaymentProvider | null {
  if (!(e.PAYMENT_PROVIDERS as readonly string[]).includes(name)) return null;
  let cache = built.get(db);
  if (!cache || cache.env !== e) {
    cache = { env: e, byName: new Map() };
    built.set(db, cache);
  }
  let provider = cache.byName.get(name);
  if (!provider) {
    provider = FACTORIES[name as PaymentProviderName](db, e);
    cache.byName.set(name, provider);
  }
  return provider;
}

/** Every provider the deployment runs, in PAYMENT_PROVIDERS order (the reconciliation job asks each about its payments). */
export function configuredProviders(db: Db, e: Env = env()): PaymentProvider[] {
  return e.PAYMENT_PROVIDERS.map((name) => providerNamed(db, name, e)!);
}

/**
 * What a channel offers: its `payment_providers` that the deployment runs, in the channel's order; a channel that names
 * none offers every provider the deployment runs.
 */
export function channelProviders(db: Db, channel: Pick<ChannelRow, 'paymentProviders'>, e: Env = env()): PaymentProvider[] {
  const names = channel.paymentProviders.length > 0 ? channel.paymentProviders : e.PAYMENT_PROVIDERS;
  return names.flatMap((name) => providerNamed(db, name, e) ?? []);
}

/** The same, as the pay page's options (name and the buyer environments each fits). */
export function channelPayOptions(db: Db, channel: Pick<ChannelRow, 'paymentProviders'>, e: Env = env()): PayOption[] {
  return channelProviders(db, channel, e).map((p) => ({ name: p.name as PaymentProviderName, clients: p.clients }));
}

/** The sandbox, when the deployment runs it (its cashier page and calls answer 404 otherwise). */
export function sandboxOf(db: Db, e: Env = env()): ReturnType<typeof sandboxProvider> | null {
  return e.PAYMENT_PROVIDERS.includes('sandbox') ? sandboxProvider(db, e.PAYMENT_SECRET) : null;
}
