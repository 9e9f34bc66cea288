import 'server-only';
import { randomUUID } from 'node:crypto';
import { aliyunFormBody, signAliyunRequest } from '../security/cloud-signature';
import { vendorNoAnswer, type IdentityProvider } from './provider';
import { keysRefused, postToVendor, unknownAnswer, type VendorSettings } from './vendor-call';

/**
 * Alibaba Cloud cloudauth (2019-03-07) Id2MetaVerify, the two-factor check of a name and a resident ID number, signed
 * with ACS3-HMAC-SHA256 (lib/security/cloud-signature.ts); the parameters travel as a form body, never in the URL.
 * Code "200" with ResultObject.BizCode "1" match, "2" mismatch, "3" no such number. Refusals: InvalidAccessKeyId,
 * SignatureDoesNotMatch and Forbidden.* (service not enabled, account in arrears, RAM user without the permission) are
 * our keys'; Forbidden.ExceptionDataSource is the authority's database not answering.
 */
export type AliyunCloudauthSettings = { accessKeyId: string; accessKeySecret: string; endpoint: string; timeoutMs?: number };

type CloudauthAnswer = { Code?: unknown; ResultObject?: { BizCode?: unknown } };

const KEYS_REFUSED = /^(InvalidAccessKeyId|SignatureDoesNotMatch|IncompleteSignature|InvalidTimeStamp|Forbidden)/;

export function aliyunCloudauthProvider(settings: AliyunCloudauthSettings): IdentityProvider {
  const vendor: VendorSettings = {
    provider: 'aliyun',
    endpoint: settings.endpoint,
    timeoutMs: settings.timeoutMs,
    credentialVariables: 'IDENTITY_ALIYUN_ACCESS_KEY_ID and IDENTITY_ALIYUN_ACCESS_KEY_SECRET',
  };
  const origin = new URL(settings.endpoint);
  return {
    name: 'aliyun',
    async check({ name, idNumber }) {
      const body = aliyunFormBody({ ParamType: 'normal', IdentifyNum: idNumber, UserName: name });
      const headers = signAliyunRequest({
        host: origin.host,
        action: 'Id2MetaVerify',
        version: '2019-03-07',
        body,
        accessKeyId: settings.accessKeyId,
        accessKeySecret: settings.accessKeySecret,
        now: new Date(),
        nonce: randomUUID(),
      });
      // fetch sets Host itself, from the URL: the same value as signed.
      const sent = Object.fromEntries(Object.entries(headers).filter(([header]) => header !== 'host'));
      const answer = await postToVendor(vendor, { url: `${origin.origin}/`, headers: sent, body });
      const json = (answer.json ?? {}) as CloudauthAnswer;
      const code = typeof json.Code === 'string' ? json.Code : `HTTP ${answer.status}`;
      if (code !== '200' || answer.status !== 200) {
        if (code === 'Forbidden.ExceptionDataSource') {
          console.error(`[identity aliyun] ${settings.endpoint}: ${code}, the authority's database is not answering`);
          throw vendorNoAnswer();
        }
        if (KEYS_REFUSED.test(code) || answer.status === 403) throw keysRefused(vendor, code);
        throw unknownAnswer(vendor, code);
      }
      switch (json.ResultObject?.BizCode) {
        case '1':
          return 'match';
        case '2':
          return 'mismatch';
        case '3':
          return 'noRecord';
        default:
          throw unknownAnswer(vendor, `BizCode ${String(json.ResultObject?.BizCode)}`);
      }
    },
  };
}
