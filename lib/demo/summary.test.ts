import { SEED_CHANNELS } from './seed-data';
import { demoSummary } from './summary';

describe('the demo summary', () => {
  it('names every demo channel at its address on the port, and every code with the page it is entered on', () => {
    const text = demoSummary(
      [
        {
          channel: 'GIFT',
          host: 'gift.localhost',
          path: '/receive_detail_new/3/3',
          name: 'Member card gift: Member Crane',
          codes: ['AAAA', 'BBBB'],
        },
      ],
      3504,
    );
    for (const c of SEED_CHANNELS) expect(text).toContain(`http://${c.host}:3504  ${c.key}  labels ${c.labelList}`);
    expect(text).toContain('http://dark.localhost:3504  DARK  labels 1  (status 0: hidden)');
    expect(text).toContain('http://gift.localhost:3504/receive_detail_new/3/3  Member card gift: Member Crane\n    AAAA  BBBB');
  });
});
