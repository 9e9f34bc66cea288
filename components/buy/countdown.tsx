'use client';

import { useEffect, useRef, useState } from 'react';
import { useRouter } from 'next/navigation';

/**
 * "4:59" until `until`. At zero it reloads the page's server data (`refreshOnEnd`, the default), so an expired order
 * shows as cancelled, or calls `onEnd` (a page whose data is its client part's reads it again): once for each `until`,
 * however often the page renders after. The first paint uses the server's clock (hydration warning suppressed).
 */
export function Countdown({
  until,
  refreshOnEnd = true,
  onEnd,
  className,
  testId,
}: {
  until: string;
  refreshOnEnd?: boolean;
  onEnd?: () => void;
  className?: string;
  testId?: string;
}) {
  const router = useRouter();
  const end = new Date(until).getTime();
  const [now, setNow] = useState(() => Date.now());
  const left = Math.max(0, end - now);
  const onEndNow = useRef(onEnd);
  const endedAt = useRef<number | null>(null);
  useEffect(() => {
    onEndNow.current = onEnd;
  });
  useEffect(() => {
    if (left <= 0) {
      if (endedAt.current === end) return;
      endedAt.current = end;
      if (onEndNow.current) onEndNow.current();
      else if (refreshOnEnd) router.refresh();
      return;
    }
    const timer = setTimeout(() => setNow(Date.now()), Math.min(1000, left));
    return () => clearTimeout(timer);
  }, [left, end, refreshOnEnd, router]);
  const seconds = Math.ceil(left / 1000);
  const text = `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
  return (
    <span className={className} data-testid={testId} suppressHydrationWarning role="timer">
      {text}
    </span>
  );
}
