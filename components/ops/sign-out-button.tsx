'use client';

import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { consoleCall } from './console-call';

/** Ends the console session (the server revokes it and clears the cookie), then the sign-in page. */
export function SignOutButton({ label, locale }: { label: string; locale: string }) {
  const [busy, setBusy] = useState(false);
  const router = useRouter();
  return (
    <button
      type="button"
      disabled={busy}
      onClick={async () => {
        setBusy(true);
        await consoleCall('/ops/api/session/signOut', {}, locale);
        router.replace('/sign-in');
        router.refresh();
      }}
      className="rounded-md border border-gray-300 bg-white px-3 py-1.5 text-sm font-medium text-gray-800 hover:bg-gray-50 disabled:opacity-60"
    >
      {label}
    </button>
  );
}
