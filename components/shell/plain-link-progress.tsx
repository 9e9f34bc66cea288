/**
 * The progress bar for a plain-link navigation (issue 34): a tap on a link before the page's scripts have arrived (or
 * on any link the router does not take) loads the next page the old way, and on a slow link nothing showed the tap
 * was seen for seconds. A few lines run inline, before any script file: a click on a link to another page of this
 * site that nothing else took (the router and the gallery's viewer call preventDefault; after hydration the router's
 * own bar, ./navigation-progress, shows) marks `<html data-navigating>`, which shows this bar, drawn as the router's
 * bar is. Coming back through the page cache (pageshow) takes the mark away.
 */
const SCRIPT = [
  '(function(d){',
  'addEventListener("click",function(e){',
  'if(e.defaultPrevented||e.button||e.metaKey||e.ctrlKey||e.shiftKey||e.altKey)return;',
  'var a=e.target&&e.target.closest&&e.target.closest("a[href]");',
  'if(!a||(a.target&&a.target!=="_self")||a.hasAttribute("download"))return;',
  'var u=new URL(a.href,location.href);',
  'if(u.origin!==location.origin||(u.pathname===location.pathname&&u.search===location.search))return;',
  'd.documentElement.setAttribute("data-navigating","")});',
  'addEventListener("pageshow",function(){d.documentElement.removeAttribute("data-navigating")})',
  '})(document)',
].join('');

/** The inline script's source, for its test. */
export const PLAIN_LINK_PROGRESS_SCRIPT = SCRIPT;

/** `nonce`: the page's CSP nonce (the rendered-page cache swaps it per answer, as every script's). */
export function PlainLinkProgress({ label, nonce }: { label: string; nonce: string | undefined }) {
  return (
    <>
      <script nonce={nonce} dangerouslySetInnerHTML={{ __html: SCRIPT }} />
      <div
        role="progressbar"
        aria-label={label}
        data-testid="plain-navigation-progress"
        className="navigation-progress fixed inset-x-0 top-0 z-50 mx-auto hidden h-1 max-w-(--container-app) overflow-hidden bg-white/70 in-data-navigating:block"
      >
        <div className="navigation-progress-bar h-full w-1/3 bg-skin-button" />
      </div>
    </>
  );
}
