import { translator } from '../i18n/translator';
import type { Locale } from '../i18n/locale';

/**
 * What the operator host answers, with HTTP 404, for any path that is not one of the console's (issue 31: "every
 * channel path answered 404 on the operator host"). Plain HTML built in the proxy, like the store-not-found page.
 */
export function consoleNotFoundHtml(locale: Locale): string {
  const t = translator(locale);
  const e = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  return `<!doctype html>
<html lang="${locale}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="robots" content="noindex"><title>${e(t('ops.notFound.title'))} | ${e(t('ops.brand'))}</title>
<style>
body{margin:0;min-height:100vh;display:flex;align-items:center;justify-content:center;background:#f4f5f7;font-family:system-ui,-apple-system,'Segoe UI','PingFang SC',sans-serif;color:#1f2937}
main{max-width:26rem;margin:1.5rem;padding:2rem;background:#fff;border:1px solid #e5e7eb;border-radius:.75rem;text-align:center}
h1{font-size:1.25rem;margin:0 0 .5rem}p{margin:.25rem 0 1.25rem;color:#4b5563;line-height:1.5}a{color:#1d4ed8}
</style></head>
<body><main><h1>${e(t('ops.notFound.title'))}</h1><p>${e(t('ops.notFound.body'))}</p><a href="/">${e(t('ops.notFound.home'))}</a></main></body></html>`;
}
