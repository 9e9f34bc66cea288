/**
 * The WeChat share card's bootstrap (issue 36; docs/wechat.md), rendered by the root layout only for a channel with a
 * WeChat official account (lib/wechat/account.ts): a few inline lines, no script file, so a page outside WeChat, or of
 * a channel without an account, loads and calls nothing more (and the goods page's first-load script stays as it was,
 * issue 34). Inside WeChat (User-Agent `MicroMessenger`, not a mini-program's web view) they load WeChat's JS-SDK, ask
 * the server for `wx.config` (/market/api/wechat/jsConfig) and, on `wx.ready`, set the card for chats and Moments:
 * - a goods page: the sale's name, its price (where the channel shows amounts) and its cover, read from the page's
 *   schema.org Product (the JSON-LD the goods page writes for crawlers); a cover drawn as SVG, which WeChat does not
 *   show, gives way to the page's link-preview picture (the sale's card as a PNG, with the cover on it; after an
 *   in-app navigation the head may still hold the page before's og:image too, so the sale's own is looked for first);
 * - any other page: the channel's name, its description and its picture (`shared`).
 * The link is the page's own, without its #hash. After an in-app navigation (the head's title changes) the card is set
 * again for the new page; WeChat on iOS checks the signature against the URL the visitor entered on, Android against
 * the current one, so iOS keeps the first config and Android asks for one per page.
 */

export const JWEIXIN_SRC = 'https://res.wx.qq.com/open/js/jweixin-1.6.0.js';
export const JS_CONFIG_PATH = '/api/market/api/wechat/jsConfig';

export type WechatShared = { title: string; desc: string; imgUrl: string };

const SCRIPT = `(function(w,d,c){
var ua=navigator.userAgent;
if(!/MicroMessenger/i.test(ua)||/miniProgram/i.test(ua))return;
var ios=/iPhone|iPad|iPod/i.test(ua),entry=bare(),ready=false,shown="";
function bare(){return location.href.split("#")[0]}
function preview(k){var o=d.querySelectorAll('meta[property="og:image"]'),f=null;
for(var j=0;j<o.length;j++){var u=o[j].getAttribute("content")||"";f=f||u;
if(/^\\d+$/.test(k)&&new RegExp("/api/og/sale/"+k+"(\\\\?|$)").test(u))return u}return f}
function page(){
var s={title:c.title,desc:c.desc,imgUrl:c.imgUrl},l=d.querySelectorAll('script[type="application/ld+json"]');
for(var i=0;i<l.length;i++){try{var p=JSON.parse(l[i].textContent||"");
if(p&&p["@type"]==="Product"){s.title=p.name||s.title;var m=[].concat(p.image||[])[0];
if(m&&/\\.svg(\\?|$)/i.test(m))m=preview(p.sku);if(m)s.imgUrl=m;
s.desc=p.offers&&p.offers.price?"\\u00a5"+p.offers.price:(p.brand&&p.brand.name)||s.desc}}catch(e){}}
return s}
function share(){var s=page(),link=bare();shown=link;
w.wx.updateAppMessageShareData({title:s.title,desc:s.desc,link:link,imgUrl:s.imgUrl});
w.wx.updateTimelineShareData({title:s.title,link:link,imgUrl:s.imgUrl})}
function config(){
fetch(c.api,{method:"POST",credentials:"omit",headers:{"content-type":"application/json"},body:JSON.stringify({url:ios?entry:bare()})})
.then(function(r){return r.json()}).then(function(a){
if(!a||a.code!==200||!a.data||!w.wx)return;var x=a.data;
w.wx.config({debug:false,appId:x.appId,timestamp:x.timestamp,nonceStr:x.nonceStr,signature:x.signature,jsApiList:["updateAppMessageShareData","updateTimelineShareData"]});
w.wx.ready(function(){ready=true;share()})}).catch(function(){})}
var s=d.createElement("script");s.src=c.sdk;s.async=true;s.onload=config;d.head.appendChild(s);
var t=null;new MutationObserver(function(){clearTimeout(t);t=setTimeout(function(){
if(!ready||bare()===shown)return;if(ios)share();else{ready=false;config()}},300)}).observe(d.head,{childList:true,subtree:true,characterData:true})
})(window,document,`;

/** The inline script with the channel's card, escaped so no text of it can close the script element. */
export function wechatShareScript(shared: WechatShared): string {
  const config = JSON.stringify({ ...shared, sdk: JWEIXIN_SRC, api: JS_CONFIG_PATH }).replace(/</g, '\\u003c');
  return `${SCRIPT}${config})`;
}

/** `nonce`: the page's CSP nonce (the rendered-page cache swaps it per answer, as every script's). */
export function WechatShare({ nonce, shared }: { nonce: string | undefined; shared: WechatShared }) {
  return <script nonce={nonce} data-wechat-share="" dangerouslySetInnerHTML={{ __html: wechatShareScript(shared) }} />;
}
