import { getDb } from '@/lib/db/client';
import { exportAuditResponse } from '@/lib/operator/audit-procedures';

// The audit trail as CSV (issue 31): GET /audit/export on the operator host (the proxy rewrites it here). The checks
// and the stream are in lib/operator/audit-procedures.ts, where its operator rule is declared.
export const dynamic = 'force-dynamic';

export async function GET(request: Request): Promise<Response> {
  return exportAuditResponse(request, { db: getDb() });
}
