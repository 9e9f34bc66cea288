import type { ReactNode } from 'react';

/** The frame of the console's pages before sign-in: the brand and one card in the middle of the screen. */
export function GuestFrame({ brand, title, wide, children }: { brand: string; title: string; wide?: boolean; children: ReactNode }) {
  return (
    <main className="flex min-h-screen flex-col items-center justify-center px-4 py-10">
      <p className="mb-6 text-sm font-semibold tracking-wide text-gray-600 uppercase">{brand}</p>
      <div className={`w-full ${wide ? 'max-w-3xl' : 'max-w-md'} rounded-xl border border-gray-200 bg-white p-8 shadow-sm`}>
        <h1 className="mb-6 text-2xl font-semibold text-gray-900">{title}</h1>
        {children}
      </div>
    </main>
  );
}
