import { getDb } from '@/lib/db/client';
import { exportReportResponse } from '@/lib/operator/report-procedures';

// The reports table as CSV (issue 32): GET /channels/<key>/reports/export?from=&to= on the operator host (the proxy
// rewrites it here). The checks are in lib/operator/report-procedures.ts, beside the reports' operator rule.
export const dynamic = 'force-dynamic';

export async function GET(request: Request, { params }: { params: Promise<{ key: string }> }): Promise<Response> {
  const { key } = await params;
  return exportReportResponse(request, key, { db: getDb() });
}
