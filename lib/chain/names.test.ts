import { translator } from '@/lib/i18n/translator';
import { DEMO_CHAIN, STORE_CODES } from '@/lib/demo/seed-data';
import { chainNameIn, storeNameIn } from './names';

// Names the store writes itself read in the page's language (issue 30: a Chinese page said "Storefront Ledger
// (built-in)" and "Beijing flagship"); names an operator typed stay theirs.

const zh = translator('zh-CN');
const en = translator('en');

describe('the built-in ledger', () => {
  it("is named in the page's language, whichever language the collectible was seeded with", () => {
    for (const seeded of [DEMO_CHAIN.en.name, DEMO_CHAIN['zh-CN'].name]) {
      expect(chainNameIn(seeded, zh)).toBe('本店哈希链账本（内置）');
      expect(chainNameIn(seeded, en)).toBe('Storefront Ledger (built-in)');
    }
  });

  it('leaves a chain an operator named alone', () => {
    expect(chainNameIn('Conflux Tree-Graph', zh)).toBe('Conflux Tree-Graph');
  });
});

describe('the stores of the allow-list (spec §9)', () => {
  it('reads every store the demo seeds in Chinese on a Chinese page, and as seeded on an English one', () => {
    expect(STORE_CODES).toHaveLength(21);
    for (const store of STORE_CODES) {
      expect({ store, zh: storeNameIn(store, zh) }).toEqual({ store, zh: expect.not.stringMatching(/[A-Za-z]/) });
      expect(storeNameIn(store, en)).toBe(store.name);
    }
    expect(storeNameIn({ code: 'SH003', name: 'Shanghai store 3' }, zh)).toBe('上海3号店');
    expect(storeNameIn({ code: 'BJ001', name: 'Beijing flagship' }, zh)).toBe('北京旗舰店');
    expect(storeNameIn({ code: 'SH003', name: '上海3号店' }, en)).toBe('Shanghai store 3');
  });

  it('keeps the name an operator gave a store, on the allow-list or not', () => {
    expect(storeNameIn({ code: 'SH001', name: 'Nanjing Road' }, zh)).toBe('Nanjing Road');
    expect(storeNameIn({ code: 'HZ001', name: 'Hangzhou store' }, zh)).toBe('Hangzhou store');
  });
});
