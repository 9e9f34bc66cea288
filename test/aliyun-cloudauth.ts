import crypto from 'node:crypto';
import { startFakeHttp } from './fake-http';
import { aliyunSignatureProblem, type AliyunKeys } from './aliyun-sms';

/**
 * Alibaba Cloud cloudauth (Id2MetaVerify 2019-03-07) as a fake vendor sees it (issue 33): the ACS3-HMAC-SHA256
 * signature recomputed on its own (./aliyun-sms.ts, not the store's signer), refused as Alibaba Cloud refuses it
 * (InvalidAccessKeyId.NotFound, SignatureDoesNotMatch, HTTP 400/404), and the answer picked by the name sent: 不符 a
 * mismatch (BizCode "2"), 无记录 no record ("3"), 超时 never answers; any other a match ("1"). Used by
 * lib/identity/vendors.test.ts.
 */
export async function startCloudauthFake(keys: AliyunKeys) {
  const problems: string[] = [];
  const answer = (status: number, body: Record<string, unknown>) => ({
    status,
    body: JSON.stringify({ RequestId: crypto.randomUUID(), ...body }),
  });
  const fake = await startFakeHttp((request) => {
    const problem =
      aliyunSignatureProblem(request, keys) ??
      (request.headers['x-acs-action'] !== 'Id2MetaVerify' || request.headers['x-acs-version'] !== '2019-03-07'
        ? 'not Id2MetaVerify 2019-03-07'
        : null);
    if (problem) {
      problems.push(problem);
      return problem === 'unknown AccessKeyId'
        ? answer(404, { Code: 'InvalidAccessKeyId.NotFound', Message: 'Specified access key is not found.' })
        : answer(400, { Code: 'SignatureDoesNotMatch', Message: problem });
    }
    const form = new URLSearchParams(request.body);
    if (form.get('ParamType') !== 'normal' || !form.get('IdentifyNum') || !form.get('UserName'))
      return answer(400, { Code: 'MissingParameter', Message: 'ParamType, IdentifyNum and UserName are required' });
    const name = form.get('UserName')!;
    if (name.includes('超时')) return 'hang';
    const bizCode = name.includes('不符') ? '2' : name.includes('无记录') ? '3' : '1';
    return answer(200, { Code: '200', Message: 'success', ResultObject: { BizCode: bizCode } });
  });
  return { ...fake, problems };
}
