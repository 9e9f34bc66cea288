import { seededTestDb } from '@/test/db';
import { makeSale } from '@/test/buying';
import { drawLottery, setUpLottery } from '@/lib/sale/lottery';
import { readPageLottery } from './lottery';

// The goods page's lottery (issue 35): none for a first-come sale; the setup shows at once and so does the draw, though
// the read is cached (the setup and the draw drop it by the sale's terms tag, as they drop the rendered goods page).

const t0 = new Date('2026-11-22T08:00:00Z');
const HOUR = 3_600_000;
const at = (hours: number) => new Date(t0.getTime() + hours * HOUR);
const db = seededTestDb(t0);
const noAudit = async () => {};

it('is null for a first-come sale, then the lottery once set up, then drawn, each at once', async () => {
  const sale = await makeSale(db, { code: 'page-lottery', amount: 2, limitPerUser: 1, now: t0 });
  const scope = { db, now: t0, channelId: sale.channelId };
  const id = String(sale.saleId);
  expect(await readPageLottery(scope, id)).toBeNull();

  await setUpLottery(
    db,
    sale.channelId,
    sale.saleId,
    {
      registrationOpensAt: at(1),
      registrationClosesAt: at(2),
      drawAt: at(3),
      purchaseWindowMinutes: 30,
      publicValueSource: 'the day’s 3D numbers',
    },
    t0,
    noAudit,
  );
  const set = await readPageLottery(scope, id);
  expect(set).toMatchObject({
    saleId: id,
    copies: 2,
    registrationOpensAt: at(1).toISOString(),
    registrationClosesAt: at(2).toISOString(),
    drawAt: at(3).toISOString(),
    purchaseWindowMinutes: 30,
    publicValueSource: 'the day’s 3D numbers',
    drawnAt: null,
  });
  expect(set!.commitment).toMatch(/^[0-9a-f]{64}$/);
  // Nothing of the seed on the page's read.
  expect(JSON.stringify(set)).not.toMatch(/seed/i);

  await drawLottery(db, sale.channelId, sale.saleId, '5 8 2', at(3), noAudit);
  expect(await readPageLottery(scope, id)).toMatchObject({ drawnAt: at(3).toISOString() });
});

it('is null for an id that names no sale of the channel, or no id at all', async () => {
  const scope = { db, now: t0, channelId: 1 };
  expect(await readPageLottery(scope, '999999')).toBeNull();
  expect(await readPageLottery(scope, 'abc')).toBeNull();
});
