import { test as setup } from '@playwright/test';
import { logInThroughApi } from './api-login';
import { BUYER_CHANNELS, buyerState } from './buyers';

// Once per run and channel: a buyer logged in through the API (api-login.ts), the browser's state saved for the specs
// that only need someone logged in (test.use({ storageState: buyerState(channel) })).
for (const channel of BUYER_CHANNELS) {
  setup(`a buyer logged in on ${channel}`, async ({ page }) => {
    await logInThroughApi(page, channel);
    await page.context().storageState({ path: buyerState(channel) });
  });
}
