import { expect, test } from '@playwright/test';
import { logInAndBuyOne } from './buy-helpers';
import { OPS, signInOwner } from './console-owner';
import { channelUrl } from './support';

// issue 32, "Orders and buyers": a buyer buys Star Fox and pays at the sandbox; the owner refunds the order on its
// refund page (a copy ticked, a reason, the confirmation naming the amount); the buyer's order records show the refund
// and their collection no longer has the edition.

const SHOTS = process.env.CONSOLE_SHOTS;

test('an operator refunds a paid order; the buyer sees the refund and the edition leaves the collection', async ({ browser }) => {
  test.setTimeout(180_000);
  const buyer = await (await browser.newContext()).newPage();
  const edition = await logInAndBuyOne(buyer, 'aurora', 'Star Fox');
  const orderNo = /orderNo=(\d{22})$/.exec(buyer.url())![1]!;
  await buyer.goto(channelUrl('aurora', '/mine/collection'));
  await expect(buyer.getByTestId('holding-edition')).toHaveText([edition]);

  const ops = await (await browser.newContext()).newPage();
  await signInOwner(ops);
  await ops.goto(`${OPS}/channels/AURORA/orders/${orderNo}`);
  await expect(ops.getByRole('heading', { name: `Refund order ${orderNo}` })).toBeVisible();
  await expect(ops.getByTestId('refund-state')).toHaveText('Paid');
  await expect(ops.getByRole('checkbox')).toBeChecked();
  await ops.getByLabel('Reason').fill('Price typo');
  if (SHOTS) await ops.screenshot({ path: `${SHOTS}/refund-panel.png`, fullPage: true });
  ops.once('dialog', (dialog) => void dialog.accept());
  await ops.getByRole('button', { name: /^Refund 1 copy \(¥/ }).click();
  await expect(ops.getByTestId('refund-result')).toContainText('Refunded ¥');
  await expect(ops.getByTestId('refund-history')).toContainText('Done');
  // Refunded: the copy can no longer be chosen, and says why.
  await expect(ops.getByRole('checkbox')).toBeDisabled();
  await expect(ops.getByText('already refunded')).toBeVisible();

  await buyer.goto(channelUrl('aurora', '/mine/records'));
  const order = buyer.locator(`[data-order-no="${orderNo}"]`);
  await expect(order.getByTestId('order-refund')).toContainText('refunded for 1 copy');
  await expect(order.getByTestId('order-refund')).toContainText('Refunded');
  await buyer.goto(channelUrl('aurora', '/mine/collection'));
  await expect(buyer.getByTestId('holding-edition')).toHaveCount(0);
});
