import { storeNotFoundHtml } from './store-not-found';

describe('store not found page', () => {
  it('names the host in the visitor’s language', () => {
    expect(storeNotFoundHtml('nowhere.localhost:3000', 'en')).toContain('<h1>Store not found</h1>');
    expect(storeNotFoundHtml('nowhere.localhost:3000', 'en')).toContain('There is no store at <code>nowhere.localhost:3000</code>.');
    expect(storeNotFoundHtml('nowhere.localhost', 'zh-CN')).toContain('<h1>店铺不存在</h1>');
  });
  it('cannot be used to inject markup through the Host header', () => {
    const html = storeNotFoundHtml('<script>alert(1)</script>.localhost', 'en');
    expect(html).not.toContain('<script>');
  });
});
