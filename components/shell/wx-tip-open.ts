/** The window event that asks the WeChat tip (./wx-tip.tsx) to show, its detail the words to show (issue 36). */
export const WX_TIP_OPEN = 'storefront:wx-tip';

/** Shows the "open in your browser" tip with `body` (inside WeChat, where the tip is loaded: ./shell.tsx). */
export function openWxTip(body: string): void {
  window.dispatchEvent(new CustomEvent<string>(WX_TIP_OPEN, { detail: body }));
}
