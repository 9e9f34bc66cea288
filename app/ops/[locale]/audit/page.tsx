import Link from 'next/link';
import { Fragment } from 'react';
import { getDb } from '@/lib/db/client';
import { env } from '@/lib/env';
import { AppError } from '@/lib/procedure/errors';
import { describeInput, inputError } from '@/lib/procedure/messages';
import { seesEveryChannel } from '@/lib/procedure/roles';
import { listConsoleChannels } from '@/lib/operator/channels';
import { AUDIT_CURSOR, AUDIT_EXPORT_MAX_ROWS, auditChoices, formatInZone, listAudit, type AuditDetail } from '@/lib/operator/audit';
import { auditFilterInput, auditFilterOf } from '@/lib/operator/audit-procedures';
import { consoleTitled, consoleWords, requireConsoleOperator, type ConsolePageParams } from '@/lib/page/console';
import { ConsoleShell } from '@/components/ops/console-shell';
import { AuditFilters, type AuditFilterValues } from '@/components/ops/audit-filters';
import { AuditEntryDetail } from '@/components/ops/audit-entry';

type Props = { params: Promise<ConsolePageParams>; searchParams: Promise<Record<string, string | string[] | undefined>> };

export const generateMetadata = consoleTitled((t) => t('ops.audit.title'));

const FILTER_NAMES = ['operator', 'channel', 'kind', 'from', 'to'] as const;

/**
 * The audit trail (issue 31, "An audit trail"): newest first, a page at a time by keyset (`after`), filtered by
 * operator, channel, kind and days in the console's time zone; a row opens (`open`) to its input and the record before
 * and after. What each operator may read: lib/operator/audit.ts. The same filters download as CSV (/audit/export).
 */
export default async function AuditPage({ params, searchParams }: Props) {
  const { locale, t } = await consoleWords(params);
  const operator = await requireConsoleOperator();
  const db = getDb();
  const query = await searchParams;
  const one = (name: string) => {
    const v = query[name];
    return typeof v === 'string' ? v : undefined;
  };
  const values: AuditFilterValues = Object.fromEntries(FILTER_NAMES.map((n) => [n, one(n)]).filter(([, v]) => v));
  const errors: Partial<Record<keyof AuditFilterValues, string>> = {};
  const timeZone = env().CONSOLE_TIME_ZONE;
  let entries: AuditDetail[] = [];
  let next: string | null = null;
  const parsed = auditFilterInput.safeParse(values, { error: inputError, reportInput: true });
  const after = one('after');
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = issue.path[0] as keyof AuditFilterValues;
      errors[field] ??= describeInput([issue], locale);
    }
  } else {
    try {
      const page = await listAudit(db, operator, auditFilterOf(parsed.data), {
        cursor: after && AUDIT_CURSOR.test(after) ? after : undefined,
      });
      entries = page.entries;
      next = page.next;
    } catch (error) {
      // A channel the operator does not work on: said under the channel field, with the words the API uses.
      if (!(error instanceof AppError)) throw error;
      errors.channel = error.messageIn(locale);
    }
  }
  const [choices, channels] = await Promise.all([auditChoices(db, operator), listConsoleChannels(db, operator)]);
  const filterQuery = new URLSearchParams(Object.entries(values) as [string, string][]);
  const withQuery = (extra: Record<string, string>) => {
    const q = new URLSearchParams(filterQuery);
    for (const [k, v] of Object.entries(extra)) q.set(k, v);
    const s = q.toString();
    return s ? `/audit?${s}` : '/audit';
  };
  const openId = one('open');
  const exportQuery = filterQuery.toString();

  return (
    <ConsoleShell t={t} locale={locale} operator={operator} current="audit">
      <div className="mb-6">
        <h1 className="text-2xl font-semibold text-gray-900">{t('ops.audit.title')}</h1>
        <p className="mt-1 text-sm text-gray-600">
          {t('ops.audit.intro')} {seesEveryChannel(operator.role) ? t('ops.audit.scopeAll') : t('ops.audit.scopeGranted')}
        </p>
        <p className="mt-1 text-sm font-medium text-gray-800" data-testid="audit-zone">
          {t('ops.audit.zone', { zone: timeZone })}
        </p>
      </div>
      <AuditFilters
        t={t}
        values={values}
        errors={errors}
        choices={{ operators: choices.operators, kinds: choices.kinds, channels: channels.map((c) => ({ key: c.key, name: c.name })) }}
        exportHref={exportQuery ? `/audit/export?${exportQuery}` : '/audit/export'}
        exportNote={t('ops.audit.exportNote', { max: AUDIT_EXPORT_MAX_ROWS.toLocaleString(locale) })}
      />
      {entries.length === 0 ? (
        <p className="rounded-lg border border-dashed border-gray-300 bg-white p-8 text-center text-gray-600">{t('ops.audit.none')}</p>
      ) : (
        <div className="overflow-x-auto rounded-lg border border-gray-200 bg-white">
          <table className="min-w-full divide-y divide-gray-200 text-left text-sm">
            <thead className="bg-gray-50 text-xs font-semibold tracking-wide text-gray-600 uppercase">
              <tr>
                {(['when', 'who', 'address', 'channel', 'what'] as const).map((column) => (
                  <th key={column} scope="col" className="px-4 py-3">
                    {t(`ops.audit.${column}`)}
                  </th>
                ))}
                <th scope="col" className="px-4 py-3">
                  <span className="sr-only">{t('ops.audit.open')}</span>
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-gray-100">
              {entries.map((e) => {
                const isOpen = openId === e.id;
                return (
                  <Fragment key={e.id}>
                    <tr id={`entry-${e.id}`} data-audit-entry={e.id} className={isOpen ? 'bg-blue-50' : undefined}>
                      <td className="px-4 py-3 font-mono text-xs whitespace-nowrap text-gray-800">
                        {formatInZone(new Date(e.at), timeZone)}
                      </td>
                      <td className="px-4 py-3 font-medium text-gray-900">{e.operator}</td>
                      <td className="px-4 py-3 font-mono text-xs text-gray-800">{e.ip}</td>
                      <td className="px-4 py-3 font-mono text-xs text-gray-800">{e.channel ?? '—'}</td>
                      <td className="px-4 py-3 font-mono text-xs text-gray-900">{e.kind}</td>
                      <td className="px-4 py-3 text-right">
                        <Link
                          href={`${withQuery({ ...(after ? { after } : {}), open: e.id })}#entry-${e.id}`}
                          aria-expanded={isOpen}
                          className="text-sm font-medium text-blue-800 underline-offset-2 hover:underline"
                        >
                          {t('ops.audit.open')}
                        </Link>
                      </td>
                    </tr>
                    {isOpen ? (
                      <tr>
                        <td colSpan={6} className="bg-gray-50 px-4 py-4">
                          <AuditEntryDetail entry={e} t={t} />
                        </td>
                      </tr>
                    ) : null}
                  </Fragment>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      <nav className="mt-4 flex justify-between text-sm" aria-label={t('ops.audit.title')}>
        {after ? (
          <Link href={withQuery({})} className="font-medium text-blue-800 hover:underline">
            {t('ops.audit.newer')}
          </Link>
        ) : (
          <span />
        )}
        {next ? (
          <Link href={withQuery({ after: next })} className="font-medium text-blue-800 hover:underline" data-testid="audit-older">
            {t('ops.audit.older')}
          </Link>
        ) : null}
      </nav>
    </ConsoleShell>
  );
}
