'use client';

import { useEffect, useState } from 'react';

/** "4:59" until `until`; calls `onEnd` once at zero. The first paint uses the server's clock (hydration warning suppressed). */
export function Countdown({ until, onEnd, className, testId }: { until: string; onEnd?: () => void; className?: string; testId?: string }) {
  const end = new Date(until).getTime();
  const [now, setNow] = useState(() => Date.now());
  const left = Math.max(0, end - now);
  useEffect(() => {
    if (left <= 0) {
      onEnd?.();
      return;
    }
    const timer = setTimeout(() => setNow(Date.now()), Math.min(1000, left));
    return () => clearTimeout(timer);
  }, [left, onEnd]);
  const seconds = Math.ceil(left / 1000);
  const text = `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
  return (
    <span className={className} data-testid={testId} suppressHydrationWarning role="timer">
      {text}
    </span>
  );
}
