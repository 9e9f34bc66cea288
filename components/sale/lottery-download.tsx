'use client';

import { useState } from 'react';

/** The public read of a lottery (docs/api.md, "Lottery sales"): its `draw` is the published file. */
export const LOTTERY_PUBLISHED_URL = '/api/market/api/lottery/published';

/**
 * The verify page's download (issue 35): the published draw, exactly the `draw` object of `lottery/published` that
 * `npm run draw:verify -- <file>` takes, asked when tapped (a list of 100,000 registrants stays out of the page's HTML)
 * and saved as a JSON file in the store's canonical layout (two-space indents, one newline at the end).
 */
export function LotteryDownload({ saleId, fileName, label, failed }: { saleId: string; fileName: string; label: string; failed: string }) {
  const [error, setError] = useState(false);
  const [busy, setBusy] = useState(false);

  async function download() {
    if (busy) return;
    setBusy(true);
    setError(false);
    try {
      const response = await fetch(LOTTERY_PUBLISHED_URL, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ saleId }),
        credentials: 'omit',
      });
      const body = (await response.json()) as { code?: unknown; data?: { draw?: unknown } };
      if (body.code !== 200 || !body.data?.draw) throw new Error('no published draw');
      const blob = new Blob([`${JSON.stringify(body.data.draw, null, 2)}\n`], { type: 'application/json' });
      const url = URL.createObjectURL(blob);
      const link = document.createElement('a');
      link.href = url;
      link.download = fileName;
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    } catch {
      setError(true);
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="flex flex-col gap-2">
      <button
        type="button"
        onClick={() => void download()}
        aria-busy={busy}
        data-testid="lottery-download"
        className="flex h-[0.8rem] items-center justify-center rounded-full bg-skin-button px-4 text-sm font-semibold text-skin-button-text shadow-card active:scale-95 motion-reduce:active:scale-100"
      >
        {label}
      </button>
      {error ? (
        <p role="alert" className="text-xs text-skin-sign">
          {failed}
        </p>
      ) : null}
    </div>
  );
}
