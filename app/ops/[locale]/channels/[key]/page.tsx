import { redirect } from 'next/navigation';
import { requireConsoleChannel, type ConsoleChannelParams } from '@/lib/page/console-channel';

/** A channel in the console opens on its settings (issue 31). */
export default async function ChannelPage({ params }: { params: Promise<ConsoleChannelParams> }) {
  const { channel } = await requireConsoleChannel(params);
  redirect(`/channels/${channel.key}/settings`);
}
