import Link from 'next/link';
import type { Translator } from '@/lib/i18n/translator';

export type AuditFilterValues = { operator?: string; channel?: string; kind?: string; from?: string; to?: string };

const inputClass =
  'block w-full rounded-md border border-gray-300 bg-white px-3 py-2 text-sm text-gray-900 shadow-sm focus:border-blue-600 focus:ring-2 focus:ring-blue-600/30 focus:outline-none';

/**
 * The audit page's filters (issue 31): a plain GET form, so a filtered view is a link an operator can keep or send,
 * and the CSV link carries the same query. A refused value is named under its own field.
 */
export function AuditFilters({
  t,
  values,
  errors,
  choices,
  exportHref,
  exportNote,
}: {
  t: Translator;
  values: AuditFilterValues;
  errors: Partial<Record<keyof AuditFilterValues, string>>;
  choices: { operators: string[]; channels: { key: string; name: string }[]; kinds: string[] };
  exportHref: string;
  exportNote: string;
}) {
  const select = (name: 'operator' | 'channel' | 'kind', options: { value: string; label: string }[]) => (
    <FilterField name={name} label={t(`ops.audit.${name}`)} error={errors[name]}>
      <select
        id={`audit-${name}`}
        name={name}
        defaultValue={values[name] ?? ''}
        className={inputClass}
        aria-invalid={errors[name] ? true : undefined}
      >
        <option value="">{t('ops.audit.any')}</option>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </FilterField>
  );
  return (
    <form method="get" action="/audit" className="mb-6 rounded-lg border border-gray-200 bg-white p-4" aria-label={t('ops.audit.filters')}>
      <div className="grid gap-4 md:grid-cols-3 xl:grid-cols-5">
        {select(
          'operator',
          choices.operators.map((o) => ({ value: o, label: o })),
        )}
        {select(
          'channel',
          choices.channels.map((c) => ({ value: c.key, label: `${c.key} · ${c.name}` })),
        )}
        {select(
          'kind',
          choices.kinds.map((k) => ({ value: k, label: k })),
        )}
        {(['from', 'to'] as const).map((name) => (
          <FilterField key={name} name={name} label={t(`ops.audit.${name}`)} error={errors[name]}>
            <input
              id={`audit-${name}`}
              type="date"
              name={name}
              defaultValue={values[name] ?? ''}
              className={inputClass}
              aria-invalid={errors[name] ? true : undefined}
            />
          </FilterField>
        ))}
      </div>
      <div className="mt-4 flex flex-wrap items-center gap-3">
        <button type="submit" className="rounded-md bg-blue-700 px-4 py-2 text-sm font-semibold text-white hover:bg-blue-800">
          {t('ops.audit.apply')}
        </button>
        <Link href="/audit" className="rounded-md px-3 py-2 text-sm font-medium text-blue-800 hover:underline">
          {t('ops.audit.reset')}
        </Link>
        <a
          href={exportHref}
          download
          data-testid="audit-export"
          className="ml-auto rounded-md border border-gray-300 bg-white px-4 py-2 text-sm font-semibold text-gray-900 hover:bg-gray-50"
        >
          {t('ops.audit.exportCsv')}
        </a>
      </div>
      <p className="mt-2 text-xs text-gray-600">{exportNote}</p>
    </form>
  );
}

function FilterField({ name, label, error, children }: { name: string; label: string; error?: string; children: React.ReactNode }) {
  return (
    <div className="space-y-1">
      <label htmlFor={`audit-${name}`} className="block text-sm font-medium text-gray-800">
        {label}
      </label>
      {children}
      {error ? (
        <p className="text-sm text-red-700" role="alert" data-field-error={name}>
          {error}
        </p>
      ) : null}
    </div>
  );
}
