import 'server-only';
import type { PageChannel } from '@/lib/page/channel';
import { pageQueueRoom } from '@/lib/page/queue-room';
import { formatDate } from '@/lib/format/date';
import { slotArgs, toSlotted } from '@/lib/i18n/slots';
import type { SaleRecord } from '@/lib/sale/schema';
import { SALE_STATUS } from '@/lib/sale/status';
import { QueueLazy } from './queue-lazy';
import { QueuePlaceholder } from './queue-panel-frame';
import type { QueueLabels } from './queue-panel';

/**
 * The goods page's waiting room (issue 35, "First come, through a waiting room"): nothing for a sale without one.
 * Rendered alike for everyone (the page stays cached); the buyer's own standing is read in the browser, whose code is
 * loaded only here (./queue-lazy).
 */
export async function QueueIsland({ channel, sale }: { channel: PageChannel; sale: SaleRecord }) {
  const room = await pageQueueRoom(channel.id, sale.id);
  if (!room) return null;
  const { t, theme } = channel;
  const startsAt = new Date(sale.saleStartTime).getTime();
  const joinOpensAt = startsAt - room.joinMinutes * 60_000;
  const labels: QueueLabels = {
    title: t('queue.title'),
    intro: t('queue.intro'),
    opensAt: t('queue.opensAt', { time: formatDate(new Date(joinOpensAt).toISOString(), 'MM-dd HH:mm', theme.timeZone) }),
    logIn: t('queue.logIn'),
    logInHint: t('queue.logInHint'),
    join: t('queue.join'),
    joining: t('queue.joining'),
    joined: t('queue.joined'),
    shuffleIn: toSlotted(t('queue.shuffleIn', slotArgs('countdown'))),
    shuffleNow: t('queue.shuffleNow'),
    position: t('queue.position'),
    ahead: t('queue.ahead'),
    wait: t('queue.wait'),
    waitSeconds: toSlotted(t('queue.waitSeconds', slotArgs('seconds'))),
    waitMinutes: toSlotted(t('queue.waitMinutes', slotArgs('minutes'))),
    copiesLeft: t('queue.copiesLeft'),
    keepOpen: t('queue.keepOpen'),
    yourTurn: t('queue.yourTurn'),
    turnEndsIn: toSlotted(t('queue.turnEndsIn', slotArgs('countdown'))),
    buy: t('queue.buy'),
    bought: t('queue.bought'),
    expired: t('queue.expired'),
    left: t('queue.left'),
    rejoin: t('queue.rejoin'),
    soldOut: t('queue.soldOut'),
    soldOutHint: t('queue.soldOutHint'),
    ended: t('queue.ended'),
    failed: t('queue.failed'),
  };
  const over = sale.statusSell === SALE_STATUS.SOLD_OUT ? 'soldOut' : sale.statusSell === SALE_STATUS.ENDED ? 'ended' : null;
  return (
    <QueueLazy
      placeholder={<QueuePlaceholder title={labels.title} />}
      saleId={sale.id}
      joinOpensAt={joinOpensAt}
      over={over}
      labels={labels}
      showAmount={theme.showAmount}
      busyMessage={t('api.busy')}
      locale={channel.locale}
    />
  );
}
