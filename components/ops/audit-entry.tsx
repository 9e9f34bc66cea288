import type { Translator } from '@/lib/i18n/translator';
import type { AuditDetail } from '@/lib/operator/audit';

/**
 * One audit entry opened (issue 31): its input, and the record before and after side by side, the fields that changed
 * marked on both sides. Values are shown as JSON, as the trail keeps them (secrets already redacted).
 */
export function AuditEntryDetail({ entry, t }: { entry: AuditDetail; t: Translator }) {
  return (
    <div className="space-y-4" data-testid="audit-detail">
      {entry.changed.length > 0 ? (
        <p className="text-sm font-medium text-amber-900">{t('ops.audit.changedFields', { fields: entry.changed.join(', ') })}</p>
      ) : null}
      <div className="grid gap-4 lg:grid-cols-3">
        <AuditValue title={t('ops.audit.input')} value={entry.input} changed={[]} t={t} testId="audit-input" />
        <AuditValue title={t('ops.audit.before')} value={entry.before} changed={entry.changed} t={t} testId="audit-before" />
        <AuditValue title={t('ops.audit.after')} value={entry.after} changed={entry.changed} t={t} testId="audit-after" />
      </div>
    </div>
  );
}

function AuditValue({
  title,
  value,
  changed,
  t,
  testId,
}: {
  title: string;
  value: unknown;
  changed: string[];
  t: Translator;
  testId: string;
}) {
  const fields = value && typeof value === 'object' && !Array.isArray(value) ? Object.entries(value as Record<string, unknown>) : null;
  return (
    <section className="min-w-0 rounded-md border border-gray-200 bg-white p-3" data-testid={testId}>
      <h3 className="mb-2 text-xs font-semibold tracking-wide text-gray-600 uppercase">{title}</h3>
      {value === null || value === undefined ? (
        <p className="text-sm text-gray-600">{t('ops.audit.nothing')}</p>
      ) : fields ? (
        <dl className="space-y-1 font-mono text-xs">
          {fields.map(([k, v]) => {
            const isChanged = changed.includes(k);
            return (
              <div
                key={k}
                data-changed={isChanged ? 'true' : undefined}
                className={`rounded px-1.5 py-0.5 ${isChanged ? 'bg-amber-100 text-amber-950 ring-1 ring-amber-300' : 'text-gray-800'}`}
              >
                <dt className="inline font-semibold">{k}: </dt>
                <dd className="inline break-all whitespace-pre-wrap">{JSON.stringify(v)}</dd>
                {isChanged ? <span className="sr-only"> ({t('ops.audit.changed')})</span> : null}
              </div>
            );
          })}
        </dl>
      ) : (
        <pre className="font-mono text-xs break-all whitespace-pre-wrap text-gray-800">{JSON.stringify(value, null, 2)}</pre>
      )}
    </section>
  );
}
