import { redirect } from 'next/navigation';
import { getConsoleOperator } from '@/lib/page/console';

/** The operator host's `/`: the channel list when signed in, else sign-in. */
export default async function ConsoleHome() {
  redirect((await getConsoleOperator()) ? '/channels' : '/sign-in');
}
