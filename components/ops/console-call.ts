import type { Registry } from '@/lib/server/registry';
import type { z } from 'zod';

/** The console's calls (issue 31), by path. */
export type ConsolePath = Extract<keyof Registry, `/ops/api/${string}`>;
export type InputOf<P extends ConsolePath> = z.input<Registry[P]['input']>;
export type OutputOf<P extends ConsolePath> = z.output<Registry[P]['output']>;

export type ConsoleAnswer<P extends ConsolePath> =
  | { ok: true; data: OutputOf<P> }
  | { ok: false; code: number; message: string; field: string | null; data?: Record<string, unknown> | null };

/**
 * The field a refusal names, so a form shows it under that field: the envelope's `data.field` (a catalogue refusal),
 * else the "field: why" of an input the schema refused (400).
 */
function fieldOf(envelope: { code: number; message: string; data: unknown }): string | null {
  const data = envelope.data as { field?: unknown } | null;
  if (data && typeof data.field === 'string') return data.field;
  // Several refusals at once ("a: why; b: why") are for the form to split (components/ops/channel-form.tsx fieldErrors).
  const named = envelope.code === 400 && !/; |；/.test(envelope.message) ? /^([A-Za-z][\w.]*): /.exec(envelope.message) : null;
  return named ? named[1]! : null;
}

/**
 * What the console does when a sensitive write is refused for want of a fresh proof (issue 31: the dispatcher answers
 * 403 with `data.reauth`): ask the operator for their password and a new code, confirm them, and answer whether that
 * worked. The dialog (components/ops/team-reauth-dialog.tsx) registers itself here once the console's frame is up.
 */
type ReauthPrompt = (refusal: string) => Promise<boolean>;
let reauthPrompt: ReauthPrompt | null = null;

/** Registers the console's re-authentication dialog; answers the function that unregisters it. */
export function registerReauthPrompt(prompt: ReauthPrompt): () => void {
  reauthPrompt = prompt;
  return () => {
    if (reauthPrompt === prompt) reauthPrompt = null;
  };
}

async function send<P extends ConsolePath>(path: P, body: InputOf<P>, locale: string): Promise<ConsoleAnswer<P>> {
  try {
    const res = await fetch(`/api${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'accept-language': locale },
      body: JSON.stringify(body),
      credentials: 'same-origin',
    });
    const envelope = (await res.json()) as { code: number; message: string; data: unknown };
    return envelope.code === 200
      ? { ok: true, data: envelope.data as OutputOf<P> }
      : {
          ok: false,
          code: envelope.code,
          message: envelope.message,
          field: fieldOf(envelope),
          data: envelope.data as Record<string, unknown> | null,
        };
  } catch {
    return { ok: false, code: 0, message: '', field: null };
  }
}

/**
 * One console call from the browser (types only from the registry; nothing of zod or the server is bundled): same-origin
 * JSON, so the `__Host-ops` cookie rides along and the dispatcher's cross-site check passes; the answer's words in the
 * page's language. A sensitive write refused for want of a fresh proof asks for the password and a code (the
 * registered dialog) and is sent once more when they were confirmed; cancelled, the refusal is the answer.
 */
export async function consoleCall<P extends ConsolePath>(path: P, body: InputOf<P>, locale: string): Promise<ConsoleAnswer<P>> {
  const answer = await send(path, body, locale);
  if (answer.ok || answer.code !== 403 || answer.data?.reauth !== true || !reauthPrompt) return answer;
  return (await reauthPrompt(answer.message)) ? send(path, body, locale) : answer;
}
