import 'server-only';
import { z } from 'zod';
import { procedure, userScope } from '../procedure/procedure';
import { mineStateSchema, readMineState } from './mine-state';

/** The buyer's own calls of this layer (issue 34): what /mine shows of them. Payloads in docs/api.md. */
export const mineProcedures = {
  '/market/api/userAttribute/mineSummary': procedure({
    summary:
      "The signed-in buyer's part of /mine (issue 34): masked phone, nickname, avatar, account number, member since, their counts (collectibles, boxes, orders to pay, unread notices, unread messages), their verified name and whether the channel asks for one.",
    auth: 'buyer',
    input: z.object({}),
    output: mineStateSchema,
    handler: async (ctx) => {
      const [scope, user] = await Promise.all([userScope(ctx), ctx.user()]);
      return readMineState(scope, user, scope.channel!);
    },
  }),
} as const;
