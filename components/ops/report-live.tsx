'use client';

import { useEffect, useState } from 'react';
import { consoleCall } from './console-call';

export type ReportLiveWords = {
  noLive: string;
  sale: string;
  copies: string;
  sold: string;
  left: string;
  buyCalls: string;
  busy: string;
  updated: string;
  stale: string;
};

type Live = {
  at: string;
  sales: { code: string; name: string; copies: number; sold: number; left: number; buyCalls: number[] }[];
  busyAnswers: number[];
};

/** How often the live view asks again (issue 32: "refreshing every second without reloading the page"). */
export const LIVE_REFRESH_MS = 1000;

/**
 * The live drop view (issue 32): polls /ops/api/report/live every second and redraws in place. A refresh that fails
 * leaves the last figures up with a note and tries again on the next second; one call at a time, never piled up.
 */
export function ReportLive({
  locale,
  channel,
  initial,
  words,
  timeZone,
}: {
  locale: string;
  channel: string;
  initial: Live;
  words: ReportLiveWords;
  timeZone: string;
}) {
  const [live, setLive] = useState<Live>(initial);
  const [stale, setStale] = useState(false);
  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const refresh = async () => {
      const answer = await consoleCall('/ops/api/report/live', { channel }, locale);
      if (stopped) return;
      if (answer.ok) {
        setLive(answer.data);
        setStale(false);
      } else {
        setStale(true);
      }
      timer = setTimeout(() => void refresh(), LIVE_REFRESH_MS);
    };
    timer = setTimeout(() => void refresh(), LIVE_REFRESH_MS);
    return () => {
      stopped = true;
      if (timer) clearTimeout(timer);
    };
  }, [channel, locale]);

  const number = new Intl.NumberFormat(locale);
  const time = new Intl.DateTimeFormat(locale, { timeStyle: 'medium', timeZone }).format(new Date(live.at));
  const lastSecond = (series: number[]) => series[series.length - 1] ?? 0;
  return (
    <div>
      <p className="text-sm text-gray-600" aria-live="polite" data-testid="live-updated" data-at={live.at}>
        {words.updated.replace('{time}', time)}
      </p>
      {stale ? (
        <p role="status" className="mt-2 rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900">
          {words.stale}
        </p>
      ) : null}
      <p className="mt-3 text-sm font-medium text-gray-900">
        {words.busy}: <span data-testid="live-busy">{number.format(lastSecond(live.busyAnswers))}</span>
      </p>
      {live.sales.length === 0 ? (
        <p className="mt-4 rounded-lg border border-dashed border-gray-300 bg-white p-6 text-center text-sm text-gray-600">
          {words.noLive}
        </p>
      ) : (
        <div className="mt-4 overflow-x-auto rounded-lg border border-gray-200 bg-white">
          <table className="min-w-full divide-y divide-gray-200 text-right text-sm" data-testid="live-sales">
            <thead className="bg-gray-50 text-xs font-semibold tracking-wide text-gray-600 uppercase">
              <tr>
                <th scope="col" className="px-3 py-3 text-left">
                  {words.sale}
                </th>
                <th scope="col" className="px-3 py-3">
                  {words.copies}
                </th>
                <th scope="col" className="px-3 py-3">
                  {words.sold}
                </th>
                <th scope="col" className="px-3 py-3">
                  {words.left}
                </th>
                <th scope="col" className="px-3 py-3">
                  {words.buyCalls}
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-gray-100 font-mono text-xs text-gray-900">
              {live.sales.map((s) => (
                <tr key={s.code} data-live-sale={s.code}>
                  <th scope="row" className="px-3 py-2 text-left font-sans text-sm font-medium">
                    {s.name} <span className="font-mono text-xs text-gray-600">{s.code}</span>
                  </th>
                  <td className="px-3 py-2">{number.format(s.copies)}</td>
                  <td className="px-3 py-2" data-live="sold">
                    {number.format(s.sold)}
                  </td>
                  <td className="px-3 py-2" data-live="left">
                    {number.format(s.left)}
                  </td>
                  <td className="px-3 py-2" data-live="calls" title={s.buyCalls.join(' ')}>
                    {number.format(lastSecond(s.buyCalls))}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
