import 'server-only';
import { notFound } from 'next/navigation';
import { getDb } from '../db/client';
import type { ChannelRow } from '../db/schema';
import { operatorChannel } from '../operator/channels';
import { AppError } from '../procedure/errors';
import type { OperatorSession } from '../procedure/scope';
import { pageLoader } from './loader';
import { requireConsoleOperator } from './console';

/** A channel page's params in the console: /channels/<key>/... */
export type ConsoleChannelParams = { locale: string; key: string };

const loadChannel = pageLoader(async (key: string): Promise<ChannelRow | null> => {
  const operator = await requireConsoleOperator();
  try {
    return await operatorChannel(getDb(), operator, key);
  } catch (error) {
    if (error instanceof AppError && error.code === 404) return null;
    throw error;
  }
});

/**
 * The signed-in operator and the channel a console page names (issue 31): 404, the same for a channel that does not
 * exist and one the operator does not work on, so a manager of one store learns nothing of the others.
 */
export async function requireConsoleChannel(
  params: Promise<ConsoleChannelParams>,
): Promise<{ operator: OperatorSession; channel: ChannelRow }> {
  const { key } = await params;
  const operator = await requireConsoleOperator();
  const channel = /^[A-Z0-9]{1,64}$/.test(key) ? await loadChannel(key) : null;
  if (!channel) notFound();
  return { operator, channel };
}
