import type { DemoCodes } from './seed';
import { SEED_CHANNELS } from './seed-data';

/**
 * What a person trying the demo needs in front of them (issue 30, "a newcomer's first start"): where each demo channel
 * is, and the demo codes with the page each is entered on. Printed by `npm run db:seed`, and by `npm run demo` once the
 * server answers, so it is the last thing on the screen instead of scrolling away under the build.
 */
export function demoSummary(codes: DemoCodes, port: number): string {
  const channels = SEED_CHANNELS.map(
    (c) => `  http://${c.host}:${port}  ${c.key}  labels ${c.labelList}${c.status === 0 ? '  (status 0: hidden)' : ''}`,
  );
  const pages = codes.map((g) => `  http://${g.host}:${port}${g.path}  ${g.name}\n    ${g.codes.join('  ')}`);
  return ['Demo channels (browsers resolve *.localhost to this machine):', ...channels, 'Demo codes (each works once):', ...pages].join(
    '\n',
  );
}
