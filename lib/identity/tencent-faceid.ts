import 'server-only';
import { TC3_CONTENT_TYPE, tencentSigner } from '../security/cloud-signature';
import { vendorNoAnswer, type IdentityProvider } from './provider';
import { keysRefused, postToVendor, unknownAnswer, type VendorSettings } from './vendor-call';

/**
 * Tencent Cloud faceid (2018-03-01) IdCardVerification, the two-factor check of a name and a resident ID number,
 * signed with TC3-HMAC-SHA256 for service `faceid` (lib/security/cloud-signature.ts). No region: the API takes none.
 * Response.Result: "0" match, "-1" mismatch, "-5" no such number; "-2" / "-3" an ID number or name the vendor finds
 * malformed (the store checked both first: read as a mismatch); "-4" / "-6" the authority's database is down or being
 * upgraded (no answer, try again); "-7" the day's limit of checks (the operator's business).
 */
export type TencentFaceIdSettings = { secretId: string; secretKey: string; endpoint: string; timeoutMs?: number };

const signFaceIdRequest = tencentSigner('faceid');

type FaceIdAnswer = { Response?: { Error?: { Code?: unknown }; Result?: unknown } };

export function tencentFaceIdProvider(settings: TencentFaceIdSettings): IdentityProvider {
  const vendor: VendorSettings = {
    provider: 'tencent',
    endpoint: settings.endpoint,
    timeoutMs: settings.timeoutMs,
    credentialVariables: 'IDENTITY_TENCENT_SECRET_ID and IDENTITY_TENCENT_SECRET_KEY',
  };
  const origin = new URL(settings.endpoint);
  return {
    name: 'tencent',
    async check({ name, idNumber }) {
      const body = JSON.stringify({ IdCard: idNumber, Name: name });
      const timestamp = Math.floor(Date.now() / 1000);
      const authorization = signFaceIdRequest({
        host: origin.host,
        action: 'IdCardVerification',
        body,
        secretId: settings.secretId,
        secretKey: settings.secretKey,
        timestamp,
      });
      const answer = await postToVendor(vendor, {
        url: `${origin.origin}/`,
        headers: {
          authorization,
          'content-type': TC3_CONTENT_TYPE,
          'x-tc-action': 'IdCardVerification',
          'x-tc-version': '2018-03-01',
          'x-tc-timestamp': String(timestamp),
        },
        body,
      });
      const response = (answer.json as FaceIdAnswer | null)?.Response;
      const error = response?.Error;
      if (error || answer.status !== 200) {
        const code = typeof error?.Code === 'string' ? error.Code : `HTTP ${answer.status}`;
        if (code.startsWith('AuthFailure') || code.startsWith('UnauthorizedOperation')) throw keysRefused(vendor, code);
        throw unknownAnswer(vendor, code);
      }
      switch (response?.Result) {
        case '0':
          return 'match';
        case '-1':
        case '-2':
        case '-3':
          return 'mismatch';
        case '-5':
          return 'noRecord';
        case '-4':
        case '-6':
          console.error(`[identity tencent] ${settings.endpoint}: Result ${response.Result}, the authority's database is not answering`);
          throw vendorNoAnswer();
        default:
          throw unknownAnswer(vendor, `Result ${String(response?.Result)}`);
      }
    },
  };
}
