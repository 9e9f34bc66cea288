'use client';

import { useState } from 'react';

/** A secret shown once (an enrolment link, an API key) with a copy button (issue 31). */
export function TeamShownOnce({
  text,
  value,
  copy,
  copied,
  testId,
}: {
  text: string;
  value: string;
  copy: string;
  copied: string;
  testId: string;
}) {
  const [done, setDone] = useState(false);
  return (
    <div role="status" className="mt-4 rounded-lg border border-amber-300 bg-amber-50 p-4 text-sm text-amber-900">
      <p>{text}</p>
      <div className="mt-2 flex flex-wrap items-center gap-2">
        <code data-testid={testId} className="min-w-0 flex-1 rounded bg-white px-2 py-1 font-mono text-xs break-all text-gray-900">
          {value}
        </code>
        <button
          type="button"
          onClick={async () => {
            await navigator.clipboard?.writeText(value).catch(() => undefined);
            setDone(true);
          }}
          className="rounded-md border border-amber-400 bg-white px-3 py-1 text-sm font-medium text-amber-900 hover:bg-amber-100"
        >
          {done ? copied : copy}
        </button>
      </div>
    </div>
  );
}

/**
 * A column the team tables show from 1,024 px on (the desktop); narrower (a tablet), its value goes under the row's
 * name, so the actions column stays on the screen rather than past its right edge.
 */
export const WIDE = 'hidden lg:table-cell';

/** "2026-11-26 08:00 UTC": the same on the server and in the browser, whatever their zones. */
export function teamMoment(iso: string | null, never: string): string {
  return iso ? `${iso.slice(0, 16).replace('T', ' ')} UTC` : never;
}

/** A word with `{name}`-style values filled in (the catalogue's simple placeholders). */
export function fill(text: string, values: Record<string, string>): string {
  return text.replace(/\{(\w+)\}/g, (whole, key: string) => values[key] ?? whole);
}

/** The channel checkboxes of a form: one per channel key. */
export function ChannelChecks({
  name,
  keys,
  checked,
  legend,
}: {
  name: string;
  keys: readonly string[];
  checked: readonly string[];
  legend: string;
}) {
  return (
    <fieldset>
      <legend className="block text-sm font-medium text-gray-800">{legend}</legend>
      <div className="mt-1 flex flex-wrap gap-x-4 gap-y-1">
        {keys.map((key) => (
          <label key={key} className="inline-flex items-center gap-1.5 font-mono text-sm text-gray-900">
            <input type="checkbox" name={name} value={key} defaultChecked={checked.includes(key)} />
            {key}
          </label>
        ))}
      </div>
    </fieldset>
  );
}
