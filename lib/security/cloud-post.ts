/**
 * One signed POST to a cloud vendor's API (the SMS carriers, the identity vendors), given up after a time limit, with
 * what it came to told apart, so each caller answers its buyer and writes its own log line. No redirect is followed: a
 * vendor's API does not redirect, and a redirect would send our signed request somewhere else. The body is never
 * logged here (an identity check's carries a legal name and an ID number).
 */
export type CloudAnswer =
  | { kind: 'json'; status: number; json: unknown }
  | { kind: 'notJson'; status: number }
  | { kind: 'timeout' }
  | { kind: 'unreachable'; error: unknown };

export async function postToCloud(
  request: { url: string; headers: Record<string, string>; body: string },
  timeoutMs: number,
): Promise<CloudAnswer> {
  let response: Response;
  let text: string;
  try {
    response = await fetch(request.url, {
      method: 'POST',
      headers: request.headers,
      body: request.body,
      signal: AbortSignal.timeout(timeoutMs),
      redirect: 'error',
    });
    text = await response.text();
  } catch (error) {
    // Checked by name: fetch's DOMException may come from another realm than this module's Error (jest, workers).
    const timedOut = (error as { name?: unknown } | null)?.name === 'TimeoutError';
    return timedOut ? { kind: 'timeout' } : { kind: 'unreachable', error };
  }
  try {
    return { kind: 'json', status: response.status, json: JSON.parse(text) as unknown };
  } catch {
    return { kind: 'notJson', status: response.status };
  }
}
