import { translator } from '../i18n/translator';
import type { Locale } from '../i18n/locale';
import { escapeHtml } from '../format/html';

/**
 * The page a host that matches no channel gets, with HTTP 404. Plain HTML built in the proxy (proxy.ts):
 * there is no channel whose layout could render it. Language from Accept-Language.
 */
export function storeNotFoundHtml(host: string, locale: Locale): string {
  const t = translator(locale);
  const safeHost = host.replace(/[^a-zA-Z0-9.:\-\[\]]/g, '');
  const [before = '', after = ''] = t('storeNotFound.body', { host: '\u0000' }).split('\u0000');
  return `<!doctype html>
<html lang="${locale}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="robots" content="noindex"><title>${escapeHtml(t('storeNotFound.title'))}</title>
<style>
body{margin:0;min-height:100vh;display:flex;align-items:center;justify-content:center;background:#f2f2f2;font-family:system-ui,-apple-system,'Segoe UI','PingFang SC',sans-serif;color:#1f2937}
main{max-width:22rem;margin:1.5rem;padding:2rem 1.5rem;background:#fff;border-radius:1rem;box-shadow:0 4px 24px rgba(0,0,0,.06);text-align:center}
.mark{width:4rem;height:4rem;margin:0 auto 1rem;border-radius:50%;background:#f3f4f6;display:flex;align-items:center;justify-content:center;font-size:2rem}
h1{font-size:1.25rem;margin:0 0 .5rem}p{margin:.25rem 0;color:#6b7280;line-height:1.5}code{color:#111827;word-break:break-all}
</style></head>
<body><main><div class="mark" aria-hidden="true">?</div><h1>${escapeHtml(t('storeNotFound.title'))}</h1>
<p>${escapeHtml(before)}<code>${safeHost}</code>${escapeHtml(after)}</p><p>${escapeHtml(t('storeNotFound.hint'))}</p></main></body></html>`;
}
