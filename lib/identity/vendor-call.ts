import 'server-only';
import { postToCloud } from '../security/cloud-post';
import { IDENTITY_VENDOR_TIMEOUT_MS, vendorCannotCheck, vendorNoAnswer } from './provider';

/**
 * One POST to an identity vendor, as the SMS carriers make theirs (lib/auth/sms-carrier.ts): given up after the time
 * limit, a network failure or a timeout a 503 for the buyer and a log line. The request and the answer carry a legal
 * name and an ID number, so neither the body sent nor the body received is ever logged: only the vendor, the endpoint,
 * the HTTP status and the vendor's own code.
 */
export type VendorSettings = {
  /** `tencent` or `aliyun`, for log lines. */
  provider: string;
  /** The API origin; a local fake in tests. */
  endpoint: string;
  timeoutMs?: number;
  /** The variables holding the keys, named in the `[alert]` line when the vendor refuses them. */
  credentialVariables: string;
};

export async function postToVendor(
  settings: VendorSettings,
  request: { url: string; headers: Record<string, string>; body: string },
): Promise<{ status: number; json: unknown }> {
  const timeoutMs = settings.timeoutMs ?? IDENTITY_VENDOR_TIMEOUT_MS;
  const answer = await postToCloud(request, timeoutMs);
  const where = `[identity ${settings.provider}] ${settings.endpoint}`;
  switch (answer.kind) {
    case 'json':
      return { status: answer.status, json: answer.json };
    case 'timeout':
      console.error(`${where}: no answer within ${timeoutMs} ms; nothing kept`);
      break;
    case 'unreachable': {
      const cause = (answer.error as { cause?: { code?: unknown } } | null)?.cause?.code;
      console.error(`${where}: unreachable${cause ? ` (${String(cause)})` : ''}; nothing kept`);
      break;
    }
    case 'notJson':
      console.error(`${where}: HTTP ${answer.status} with a body that is not JSON; nothing kept`);
      break;
  }
  throw vendorNoAnswer();
}

/** The vendor refused our keys (or the account cannot use the service): the operator must act, the buyer waits. */
export function keysRefused(settings: VendorSettings, vendorCode: string): Error {
  console.error(
    `[alert] [identity ${settings.provider}] ${settings.endpoint}: the vendor refuses our credentials (${vendorCode}); check ${settings.credentialVariables}, the key's permission for the identity check and the account's balance`,
  );
  return vendorCannotCheck();
}

/** An answer the store does not know: logged by its code only, a 503 for the buyer. */
export function unknownAnswer(settings: VendorSettings, vendorCode: string): Error {
  console.error(`[identity ${settings.provider}] ${settings.endpoint}: answered ${vendorCode}, not one the store knows; nothing kept`);
  return vendorCannotCheck();
}
