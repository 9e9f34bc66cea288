import crypto from 'node:crypto';
import { startFakeHttp, type FakeRequest } from './fake-http';

/**
 * Tencent Cloud faceid (IdCardVerification 2018-03-01) as a fake vendor sees it (issue 33): the TC3-HMAC-SHA256
 * signature for service `faceid` recomputed here on its own (not with the store's signer), refused as Tencent Cloud
 * refuses it (AuthFailure.*), and the answer picked by the name sent: 不符 a mismatch (Result "-1"), 无记录 no record
 * ("-5"), 超时 never answers; any other a match ("0"). Used by lib/identity/vendors.test.ts.
 */

export type FaceIdKeys = { secretId: string; secretKey: string };

const sha256 = (text: string) => crypto.createHash('sha256').update(text).digest('hex');
const hmacSha256 = (key: crypto.BinaryLike, text: string) => crypto.createHmac('sha256', key).update(text).digest();

/** Recomputes the signature of a request as Tencent Cloud does for faceid; null when it holds, else what is wrong. */
export function faceIdSignatureProblem(request: FakeRequest, keys: FaceIdKeys): string | null {
  const auth =
    /^TC3-HMAC-SHA256 Credential=([^/]+)\/(\d{4}-\d\d-\d\d)\/([a-z]+)\/tc3_request, SignedHeaders=([a-z;-]+), Signature=([0-9a-f]{64})$/.exec(
      String(request.headers.authorization),
    );
  if (!auth) return 'Authorization is not TC3-HMAC-SHA256';
  const [, secretId, date, service, signedHeaders, signature] = auth;
  if (secretId !== keys.secretId) return 'unknown SecretId';
  if (service !== 'faceid') return `credential scope names service ${service}`;
  if (request.headers['x-tc-action'] !== 'IdCardVerification' || request.headers['x-tc-version'] !== '2018-03-01')
    return 'not IdCardVerification 2018-03-01';
  const timestamp = Number(request.headers['x-tc-timestamp']);
  if (!Number.isInteger(timestamp) || Math.abs(Date.now() / 1000 - timestamp) > 300) return 'X-TC-Timestamp is not within 5 minutes';
  if (new Date(timestamp * 1000).toISOString().slice(0, 10) !== date) return 'credential date is not the UTC date of the timestamp';
  const names = signedHeaders!.split(';');
  if (!names.includes('content-type') || !names.includes('host')) return 'content-type and host must be signed';
  const headerLines = names
    .map(
      (name) =>
        `${name}:${String(request.headers[name] ?? '')
          .trim()
          .toLowerCase()}\n`,
    )
    .join('');
  const url = new URL(request.url, 'http://fake');
  const canonical = [request.method, url.pathname, url.search.slice(1), headerLines, signedHeaders, sha256(request.body)].join('\n');
  const toSign = ['TC3-HMAC-SHA256', String(timestamp), `${date}/faceid/tc3_request`, sha256(canonical)].join('\n');
  const kSigning = hmacSha256(hmacSha256(hmacSha256(`TC3${keys.secretKey}`, date!), 'faceid'), 'tc3_request');
  if (crypto.createHmac('sha256', kSigning).update(toSign).digest('hex') !== signature) return 'signature does not match';
  return null;
}

const answer = (response: Record<string, unknown>) => ({
  status: 200,
  body: JSON.stringify({ Response: { ...response, RequestId: crypto.randomUUID() } }),
});

/** The fake vendor on 127.0.0.1 (a free port); `problems` collects every signature it refused. */
export async function startFaceIdFake(keys: FaceIdKeys) {
  const problems: string[] = [];
  const fake = await startFakeHttp((request) => {
    const problem = faceIdSignatureProblem(request, keys);
    if (problem) {
      problems.push(problem);
      const code = problem === 'unknown SecretId' ? 'AuthFailure.SecretIdNotFound' : 'AuthFailure.SignatureFailure';
      return answer({ Error: { Code: code, Message: problem } });
    }
    const { Name, IdCard } = JSON.parse(request.body) as { Name: string; IdCard: string };
    if (Name.includes('超时')) return 'hang';
    if (Name.includes('不符')) return answer({ Result: '-1', Description: '姓名和身份证号不一致', Name, IdCard });
    if (Name.includes('无记录')) return answer({ Result: '-5', Description: '证件库中无此身份证记录', Name, IdCard });
    return answer({ Result: '0', Description: '姓名和身份证号一致', Name, IdCard });
  });
  return { ...fake, problems };
}
