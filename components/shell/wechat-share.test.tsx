/** @jest-environment jsdom */
import { renderToStaticMarkup } from 'react-dom/server';
import { JWEIXIN_SRC, WechatShare, wechatShareScript } from './wechat-share';
import { USER_AGENTS } from '@/test/user-agents';

// The WeChat share card's bootstrap (issue 36): inside WeChat it loads the JS-SDK, asks for wx.config and sets the
// card from the page; anywhere else it does nothing at all.

const SHARED = { title: 'Aurora', desc: 'Northern light', imgUrl: 'http://aurora.localhost/api/icon/apple-touch-icon.png' };

function run(userAgent: string): void {
  Object.defineProperty(window.navigator, 'userAgent', { value: userAgent, configurable: true });
  new Function(wechatShareScript(SHARED))();
}

const sdkScripts = () => [...document.head.querySelectorAll('script')].filter((s) => s.src === JWEIXIN_SRC);

/** Runs the bootstrap inside WeChat with an SDK that configures at once; the cards it set, in order. */
async function shareInWechat(): Promise<unknown[][]> {
  window.fetch = jest.fn().mockResolvedValue({ json: () => Promise.resolve({ code: 200, data: { appId: 'wx1234567890abcdef' } }) });
  run(USER_AGENTS.wechat);
  const calls: unknown[][] = [];
  (window as unknown as { wx: unknown }).wx = {
    config: () => undefined,
    ready: (f: () => void) => f(),
    updateAppMessageShareData: (d: unknown) => calls.push(['chat', d]),
    updateTimelineShareData: (d: unknown) => calls.push(['moments', d]),
  };
  sdkScripts()[0]!.dispatchEvent(new Event('load'));
  await new Promise((resolve) => setTimeout(resolve, 0));
  return calls;
}

beforeEach(() => {
  document.head.innerHTML = '';
  document.body.innerHTML = '';
});

describe('the WeChat share bootstrap (issue 36)', () => {
  it('is one inline script with the page’s nonce, whose data cannot close the element', () => {
    const html = renderToStaticMarkup(<WechatShare nonce="n0" shared={{ ...SHARED, title: '</script><b>x' }} />);
    expect(html.match(/<script/g)).toHaveLength(1);
    expect(html).toContain('nonce="n0"');
    expect(html).not.toContain('</script><b>');
  });

  it.each([
    ['a phone browser', USER_AGENTS.phone],
    ['a computer', USER_AGENTS.desktop],
    ['a mini-program web view', USER_AGENTS.miniProgram],
  ])('loads and asks nothing in %s', (_, userAgent) => {
    const fetchSpy = jest.fn();
    window.fetch = fetchSpy;
    run(userAgent);
    expect(sdkScripts()).toHaveLength(0);
    expect(fetchSpy).not.toHaveBeenCalled();
  });

  it('inside WeChat loads the JS-SDK, configures it with the server’s answer and sets the goods page’s card', async () => {
    document.head.innerHTML = `<script type="application/ld+json">${JSON.stringify({
      '@type': 'Product',
      name: 'Aurora Dawn',
      image: ['http://aurora.localhost/media/0a1b.webp'],
      offers: { price: '199.00' },
    })}</script>`;
    const answer = { appId: 'wx1234567890abcdef', timestamp: 1, nonceStr: 'n', signature: 's' };
    const fetchSpy = jest.fn().mockResolvedValue({ json: () => Promise.resolve({ code: 200, data: answer }) });
    window.fetch = fetchSpy;
    run(USER_AGENTS.wechat);
    const [sdk] = sdkScripts();
    expect(sdk).toBeDefined();
    expect(fetchSpy).not.toHaveBeenCalled();

    const calls: unknown[][] = [];
    (window as unknown as { wx: unknown }).wx = {
      config: (c: unknown) => calls.push(['config', c]),
      ready: (f: () => void) => f(),
      updateAppMessageShareData: (d: unknown) => calls.push(['chat', d]),
      updateTimelineShareData: (d: unknown) => calls.push(['moments', d]),
    };
    sdk!.dispatchEvent(new Event('load'));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(fetchSpy).toHaveBeenCalledWith(
      '/api/market/api/wechat/jsConfig',
      expect.objectContaining({ method: 'POST', credentials: 'omit' }),
    );
    expect(JSON.parse((fetchSpy.mock.calls[0]![1] as { body: string }).body)).toEqual({ url: 'http://localhost/' });
    const link = 'http://localhost/';
    expect(calls).toEqual([
      ['config', { debug: false, ...answer, jsApiList: ['updateAppMessageShareData', 'updateTimelineShareData'] }],
      ['chat', { title: 'Aurora Dawn', desc: '¥199.00', link, imgUrl: 'http://aurora.localhost/media/0a1b.webp' }],
      ['moments', { title: 'Aurora Dawn', link, imgUrl: 'http://aurora.localhost/media/0a1b.webp' }],
    ]);
  });

  it('gives a cover drawn as SVG, which WeChat does not show, way to the page’s preview picture', async () => {
    document.head.innerHTML = `<meta property="og:image" content="http://aurora.localhost/api/og/sale/1"><script type="application/ld+json">${JSON.stringify(
      {
        '@type': 'Product',
        name: 'Aurora Dawn',
        image: ['http://aurora.localhost/goods/aurora-dawn.svg'],
      },
    )}</script>`;
    const calls = await shareInWechat();
    expect(calls[0]).toEqual(['chat', expect.objectContaining({ imgUrl: 'http://aurora.localhost/api/og/sale/1', desc: SHARED.desc })]);
  });
  it('after a navigation inside the app, takes the sale’s own preview picture, not the page before’s still in the head', async () => {
    document.head.innerHTML = `<meta property="og:image" content="http://aurora.localhost/media/home-share.webp"><meta property="og:image" content="http://aurora.localhost/api/og/sale/12?v=3"><script type="application/ld+json">${JSON.stringify(
      { '@type': 'Product', name: 'Tide Whale', sku: '12', image: ['http://aurora.localhost/goods/tide-whale.svg'] },
    )}</script>`;
    const calls = await shareInWechat();
    expect(calls[0]).toEqual([
      'chat',
      expect.objectContaining({ title: 'Tide Whale', imgUrl: 'http://aurora.localhost/api/og/sale/12?v=3' }),
    ]);
    expect(calls[1]).toEqual(['moments', expect.objectContaining({ imgUrl: 'http://aurora.localhost/api/og/sale/12?v=3' })]);
  });
});
