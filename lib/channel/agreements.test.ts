import { agreementBlocks, agreementText, agreementVersion, type AgreementFacts } from './agreements';

const FACTS: AgreementFacts = { brandName: 'Bazaar', payMinutes: 15, smsCodeDays: 30, trackingDays: 90, endedSessionDays: 30 };

describe('agreement texts', () => {
  it("keep the operator's own text when the channel has one", () => {
    expect(agreementText('  Our own terms.\n\nSecond part.  ', 'salesStrategy', 'zh-CN', FACTS)).toBe('Our own terms.\n\nSecond part.');
  });

  it("otherwise give the whole template in the buyer's language, with the brand and the store's own figures", () => {
    const en = agreementText('', 'salesStrategy', 'en', FACTS);
    expect(en).toContain('in the Bazaar store');
    expect(en).toContain('You have 15 minutes to pay.');
    const zh = agreementText(' ', 'privacy', 'zh-CN', { ...FACTS, trackingDays: 45 });
    expect(zh).toContain('Bazaar');
    expect(zh).toContain('页面访问记录：45 天。');
    // Chinese through and through, apart from the brand the operator chose.
    expect(zh.replaceAll('Bazaar', '')).not.toMatch(/[A-Za-z]/);
    expect(agreementText('', 'salesStrategy', 'zh-CN', FACTS).replaceAll('Bazaar', '')).not.toMatch(/[A-Za-z]/);
  });

  it('cut into headings, lists and paragraphs for the page', () => {
    expect(agreementBlocks('Intro line\nstill intro\n\n## Heading\n\n- one\n- two\n\n- a list item\nnot a list')).toEqual([
      { kind: 'paragraph', text: 'Intro line\nstill intro' },
      { kind: 'heading', text: 'Heading' },
      { kind: 'list', items: ['one', 'two'] },
      { kind: 'paragraph', text: '- a list item\nnot a list' },
    ]);
    const blocks = agreementBlocks(agreementText('', 'privacy', 'en', FACTS));
    expect(blocks.filter((b) => b.kind === 'heading').map((b) => (b.kind === 'heading' ? b.text : ''))).toEqual([
      'What we keep',
      'How long we keep it',
      'Who else sees it',
      'Your rights',
      'Changes',
    ]);
  });
});

describe('agreement versions (issue 33)', () => {
  it('are 12 hex digits of the text as the buyer reads it: the same text one version, any change another', () => {
    const en = agreementText('', 'privacy', 'en', FACTS);
    expect(agreementVersion(en)).toMatch(/^[0-9a-f]{12}$/);
    expect(agreementVersion(agreementText('', 'privacy', 'en', { ...FACTS }))).toBe(agreementVersion(en));
    expect(agreementVersion(agreementText('', 'privacy', 'en', { ...FACTS, trackingDays: 45 }))).not.toBe(agreementVersion(en));
    expect(agreementVersion(agreementText('', 'privacy', 'zh-CN', FACTS))).not.toBe(agreementVersion(en));
    expect(agreementVersion(agreementText('Our terms.', 'privacy', 'en', FACTS))).not.toBe(agreementVersion(en));
  });
});
