'use client';

import { useRef, useState, useSyncExternalStore } from 'react';
import { TermsConsent } from '@/components/ui/terms-consent';
import { useRouter } from 'next/navigation';
import { useTranslations } from 'use-intl';
import { Button } from '@/components/ui/button';
import { dismissToasts, showToast } from '@/components/ui/toast';
import { useApi } from '@/components/shell/api-provider';
import { newTapKey } from '@/lib/client/tap-key';
import { BusinessError } from '@/lib/client/api-client';
import { REASON, type RefusalData } from '@/lib/procedure/reasons';
import { formatFen } from '@/lib/format/money';
import { Card } from '@/components/ui/card';
import { PendingLine } from '@/components/ui/pending';
import { SliderCaptcha } from '@/components/auth/slider-captcha';
import { optionsFor, payClientOf, wechatOauthStartPath, type PayClient, type PayOption } from '@/lib/payment/clients';
import { goPay, navigation } from './go-pay';
import { keptAdmission } from '@/components/sale/queue-admission';
import { PayAdmissionNote, usePayAdmission } from './pay-admission';
import { IdentityNotice } from '@/components/identity/identity-notice';
import Link from 'next/link';
import type { ApiOutput } from '@/lib/client/api-client';
import { LoadFailed } from '@/components/ui/load-failed';

/** The gate refusals of a buy (issue 33, docs/api.md): real-name first (1010), the channel's age rule (1011). */
const IDENTITY_REQUIRED = 1010;
const AGE_RESTRICTED = 1011;

/**
 * The buyer's own part of the pay page (issue 34): `saleRecord/payState`'s answer, read in the browser (components/buy/
 * pay-panel.tsx), since the rest of the page is served from the shared cache. Null while it loads.
 */
export type PayBuyer = ApiOutput<'/market/api/saleRecord/payState'>;

const noSubscription = () => () => {};
/** The buyer's environment, known once in the browser (null while rendering on the server and hydrating). */
function usePayClient(): PayClient | null {
  return useSyncExternalStore(
    noSubscription,
    () => payClientOf(navigator.userAgent),
    () => null,
  );
}

/**
 * The pay page's form (the issue on buying): quantity within the sale's per-user limit and stock, the total (hidden
 * where the channel hides amounts), the sales terms, the way to pay when more than one of the channel's providers fits
 * the buyer's browser (one that fits is used without asking), then "pay now": create the order, open its payment
 * through the chosen provider, go to pay (WeChat's JSAPI sheet inside WeChat).
 */
export function PayForm({
  saleId,
  price,
  max,
  limit,
  showAmount,
  options,
  verify,
  buyer,
  buyerFailed = false,
  onRetry,
  waitingRoom = false,
}: {
  saleId: string;
  price: number;
  /** The most one buy may take by the sale's terms and copies left; the buyer's own quota narrows it (`buyer.left`). */
  max: number;
  limit: number;
  showAmount: boolean;
  /** The channel's providers with the browsers each takes payments from (lib/page/pay.ts). */
  options: PayOption[];
  /** The verification page and back here (issue 33), for a buyer who has not verified (or is refused for it). */
  verify: { href: string; label: string };
  /** The buyer's own part (issue 34); null while it loads: a placeholder in place, and Pay off until it is known. */
  buyer: PayBuyer | null;
  /** The buyer's part could not be read (not a 401: that one goes to /login): Pay stays off, with a way to try again. */
  buyerFailed?: boolean;
  /** Reads the buyer's part again: the "try again" above, and after a refused buy. */
  onRetry?: () => void;
  /**
   * The sale goes through a waiting room (issue 35; the shared page reads it, lib/page's cached read): its buy takes the
   * admission kept in this tab, so the form says whether the buyer holds one, and Pay is off without one.
   */
  waitingRoom?: boolean;
}) {
  const t = useTranslations('pay');
  const api = useApi();
  const router = useRouter();
  const client = usePayClient();
  const fitting = client ? optionsFor(options, client) : [];
  const [picked, setPicked] = useState<string | null>(null);
  const method = fitting.find((o) => o.name === picked)?.name ?? fitting[0]?.name;
  const [wanted, setQuantity] = useState(1);
  // The buyer's own quota (issue 34) narrows the sale's: what they hold in unpaid or paid orders counts.
  const mostForBuyer = buyer ? Math.min(max, buyer.left) : 1;
  const quantity = Math.max(1, Math.min(wanted, mostForBuyer));
  const hasWechatIdentity = buyer?.hasWechatIdentity ?? false;
  const [agreed, setAgreed] = useState(false);
  const [busy, setBusy] = useState(false);
  /** The server asked this buy to pass the captcha first (issue 33, code 1013): the slider is open. */
  const [captchaOpen, setCaptchaOpen] = useState(false);
  /**
   * The tap's key, its quantity and the admission it first sent (issue 35): a retry sends that admission again, even
   * past its end, so a tap whose order was made is answered with it (the buy lane's gate lets such a retry in).
   */
  const key = useRef<{ value: string; quantity: number; admission: { admission?: string } } | null>(null);
  const admission = usePayAdmission(saleId);
  /** This form made an order whose payment did not open: the next tap is its retry, admission or not (issue 35). */
  const [orderMade, setOrderMade] = useState(false);
  const admitted = !waitingRoom || orderMade || admission.state === 'live';
  /** A refusal of the channel's rules met at the tap (the rules changed after the page was read). */
  const [refused, setGate] = useState<{ message: string; underAge: boolean } | null>(null);
  const gate =
    refused ?? (buyer?.identity.message ? { message: buyer.identity.message, underAge: buyer.identity.standing === 'underAge' } : null);
  // A lottery sale (issue 35) admits only its winners within their purchase window: anyone else is told why, Pay off.
  // So is a buyer not eligible for a priority purchase's early window (issue 35), told the sale's own opening.
  const notAdmitted = (buyer?.lottery && !buyer.lottery.mayBuy ? buyer.lottery.message : null) ?? buyer?.notOpenYet ?? null;
  const payable = buyer !== null && buyer.left > 0 && gate?.underAge !== true && notAdmitted === null && admitted;

  const pay = async (captchaTicket?: string) => {
    if (!agreed) {
      showToast('warn', t('mustAgree'));
      return;
    }
    if (!method) {
      showToast('warn', t('noMethod'));
      return;
    }
    // The terms are agreed now: the warning that asked for it goes, rather than follow the buyer to pay.
    dismissToasts();
    if (method === 'wechatpay' && client === 'wechat' && !hasWechatIdentity) {
      // WeChat Pay inside WeChat pays as the buyer's WeChat identity: learnt once (silently) before any order is made.
      navigation.leave(wechatOauthStartPath(window.location.pathname));
      return;
    }
    if (!key.current || key.current.quantity !== quantity) key.current = { value: newTapKey(), quantity, admission: withAdmission(saleId) };
    setBusy(true);
    let ordered = false;
    try {
      const order = await api.post('/market/api/order/create', {
        saleId,
        quantity,
        idempotencyKey: key.current.value,
        ...(captchaTicket ? { captchaTicket } : {}),
        // issue 35: a waiting room's admission, carried here from the goods page.
        ...key.current.admission,
      });
      ordered = true;
      setOrderMade(true);
      const payment = await api.post('/market/api/pay/create', { orderNo: order.orderNo, provider: method });
      if (!(await goPay(payment, router))) {
        showToast('warn', t('wechatFailed'));
        setBusy(false);
      }
    } catch (error) {
      // The client has shown why (spec §8). A refused order is final for this key; a sold-out sale goes to /sellout. A
      // payment that could not be opened keeps the key: the next tap finds the same order and opens its payment again,
      // rather than ask for a second order that the buyer's limit (held by the first) would refuse.
      if (error instanceof BusinessError) {
        const reason = (error.data as RefusalData | null)?.reason;
        // A higher-risk buy (issue 33): the server asks for the captcha first. The key stays, so the buy sent again
        // with the ticket is this same tap, not a second order.
        if (reason === REASON.captchaRequired && !ordered) {
          setCaptchaOpen(true);
          setBusy(false);
          return;
        }
        if (!ordered) key.current = null;
        // A refusal may mean the buyer's part moved meanwhile (an order from another tab holds the limit, issue 34):
        // it is read again, so what the form says and allows is the buyer's as it is now.
        onRetry?.();
        if (reason === REASON.soldOut) router.replace('/sellout');
        // The sale changed as the buyer tapped (a new price or limit, issue 32): the page shows its terms as they are now.
        if (reason === REASON.changed) router.refresh();
        // WeChat forgot the buyer (the identity cookie ran out): learnt again, then paid from the order records.
        if (reason === REASON.openid) navigation.leave(wechatOauthStartPath('/mine/records'));
        // The channel's rules changed after the page was drawn (issue 33): the refusal stands above Pay, with the way to
        // verify where verifying helps; under the age, Pay is off. Shown there, the toast goes.
        if (error.code === IDENTITY_REQUIRED || error.code === AGE_RESTRICTED) {
          setGate({ message: error.message, underAge: error.code === AGE_RESTRICTED });
          dismissToasts();
        }
      }
      setBusy(false);
    }
  };

  return (
    <div className="flex flex-col gap-4">
      <Card className="flex items-center justify-between p-4">
        <div>
          <p className="text-base font-medium text-skin-1">{t('quantity')}</p>
          <p className="text-xs text-neutral-500">{t('limit', { limit })}</p>
          {/* The buyer's own count (issue 34): a placeholder of the same line's height while it loads, so nothing moves. */}
          {buyer ? (
            <p className="text-xs text-neutral-500" data-testid="pay-buyer-left">
              {t('youMayBuy', { count: buyer.left })}
            </p>
          ) : (
            <p className="text-xs" data-testid="pay-buyer-loading" aria-busy="true">
              <PendingLine className="w-24" />
            </p>
          )}
        </div>
        <div className="flex items-center gap-1">
          <button
            type="button"
            aria-label={t('less')}
            disabled={quantity <= 1 || busy}
            onClick={() => setQuantity(Math.max(1, quantity - 1))}
            className="flex size-9 items-center justify-center rounded-full border border-black/10 text-lg text-skin-1 disabled:opacity-40"
          >
            −
          </button>
          <output aria-live="polite" data-testid="pay-quantity" className="w-9 text-center text-base font-semibold text-skin-1">
            {quantity}
          </output>
          <button
            type="button"
            aria-label={t('more')}
            disabled={quantity >= mostForBuyer || busy}
            onClick={() => setQuantity(Math.min(mostForBuyer, quantity + 1))}
            className="flex size-9 items-center justify-center rounded-full border border-black/10 text-lg text-skin-1 disabled:opacity-40"
          >
            +
          </button>
        </div>
      </Card>

      {fitting.length > 1 ? (
        <Card as="fieldset" className="flex flex-col gap-1 p-4" data-testid="pay-methods">
          <legend className="float-left mb-1 text-base font-medium text-skin-1">{t('method')}</legend>
          {fitting.map((o) => (
            <label key={o.name} className="flex min-h-11 items-center gap-2 text-sm text-neutral-700">
              <input
                type="radio"
                name="pay-method"
                value={o.name}
                checked={method === o.name}
                disabled={busy}
                onChange={() => setPicked(o.name)}
                className="size-4 accent-(--skin-color1)"
              />
              {t(`methods.${o.name}`)}
            </label>
          ))}
        </Card>
      ) : client && fitting.length === 0 ? (
        <p role="note" className="rounded-xl bg-amber-50 p-3 text-sm leading-relaxed text-amber-900" data-testid="pay-no-method">
          {t('noMethod')}
        </p>
      ) : null}

      <TermsConsent
        checked={agreed}
        onChange={setAgreed}
        agree={t('agree')}
        terms={[{ href: '/agreement/salesStrategy', label: t('salesStrategy') }]}
        className="px-1"
      />

      <div className="fixed inset-x-0 bottom-0 z-20 mx-auto flex max-w-(--container-app) flex-col gap-2 border-t border-black/5 bg-skin-card px-4 py-2.5 pb-[max(0.2rem,env(safe-area-inset-bottom))]">
        {gate ? <IdentityNotice message={gate.message} verify={gate.underAge ? undefined : verify} testId="pay-identity-notice" /> : null}
        {buyer?.unpaidOrder ? (
          <p role="note" className="rounded-lg bg-skin-light px-3 py-2 text-xs leading-snug text-skin-1" data-testid="pay-unpaid-order">
            {t('unpaidOrder', { quantity: buyer.unpaidOrder.quantity })}{' '}
            <Link href="/mine/records" className="font-semibold whitespace-nowrap underline underline-offset-2">
              {t('payIt')}
            </Link>
          </p>
        ) : null}
        {waitingRoom && !orderMade ? <PayAdmissionNote admission={admission} saleId={saleId} /> : null}
        {notAdmitted ? (
          <p role="note" className="rounded-lg bg-skin-light px-3 py-2 text-xs leading-snug text-skin-1" data-testid="pay-not-admitted">
            {notAdmitted}
          </p>
        ) : null}
        {buyer && buyer.left === 0 && !buyer.unpaidOrder ? (
          <p role="note" className="rounded-lg bg-skin-light px-3 py-2 text-xs leading-snug text-skin-1" data-testid="pay-limit-reached">
            {t('limitReached', { limit: buyer.limit })}
          </p>
        ) : null}
        {buyerFailed && !buyer ? (
          <LoadFailed message={t('stateFailed')} again={t('retry')} onRetry={() => onRetry?.()} testId="pay-state-failed" />
        ) : null}
        <div className="flex items-center gap-3">
          {showAmount ? (
            <p className="text-sm text-neutral-600">
              {t('total')}{' '}
              <span data-testid="pay-total" className="text-lg font-bold text-skin-sign">
                {formatFen(price * quantity)}
              </span>
            </p>
          ) : (
            // A channel that hides amounts (spec §3 showAmount) shows the price first at the cashier, after the terms were
            // agreed here: say so before the buyer taps (issue 30).
            <p className="max-w-[45%] text-xs leading-snug text-neutral-600" data-testid="pay-amount-at-payment">
              {t('amountAtPayment')}
            </p>
          )}
          <Button type="primary" loading={busy} disabled={!payable} onClick={() => void pay()} className="flex-1">
            {t('submit')}
          </Button>
        </div>
      </div>
      {captchaOpen ? (
        <SliderCaptcha
          onSolved={(ticket) => {
            setCaptchaOpen(false);
            void pay(ticket);
          }}
          onClose={() => {
            setCaptchaOpen(false);
            showToast('warn', t('captchaClosed'));
          }}
        />
      ) : null}
    </div>
  );
}

/** The waiting room's admission kept for this sale (issue 35; components/sale/queue-admission.ts), if any. */
function withAdmission(saleId: string): { admission?: string } {
  const admission = keptAdmission(saleId);
  return admission ? { admission } : {};
}
