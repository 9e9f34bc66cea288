import Link from 'next/link';
import type { ChannelAttributes } from '@/lib/db/schema';
import type { ChannelFeatures } from '@/lib/channel/labels';
import type { Skin } from '@/lib/channel/skin';
import type { Translator } from '@/lib/i18n/translator';
import { ArtImage } from '@/components/ui/art-image';

/** The kinds of records /mine leads to (spec §2 mine*), each with its words in the catalogues' `mine` namespace. */
type EntryKind = 'collection' | 'box' | 'orders' | 'exchange' | 'destroy' | 'receive' | 'chain';

export type MineEntry = {
  href: string;
  /** The title the spec gives the list. */
  label: string;
  /** What the list holds, shown under the title only where another entry has the same title (see mineEntries). */
  subtitle: string | null;
  img: string;
};

/**
 * The entries of /mine to the buyer's records (spec §2, §6), each only where the channel offers what is behind it.
 * The titles are the spec's, and on a channel whose destroy records are titled 'receive records' (spec §2 mineDestory)
 * that list and the receive records read alike (issue 30: SWAP showed two "领取记录"): wherever two entries would read
 * alike, each gets a subtitle saying what its list holds.
 */
export function mineEntries({
  features,
  attributes,
  skin,
  t,
}: {
  features: ChannelFeatures;
  attributes: ChannelAttributes;
  skin: Skin;
  t: Translator;
}): MineEntry[] {
  const entries: { href: string; kind: EntryKind; title: EntryKind; img: string; show: boolean }[] = [
    { href: '/mine/collection', kind: 'collection', title: 'collection', img: skin.minecollectionImg, show: true },
    { href: '/mine/box', kind: 'box', title: 'box', img: skin.mineBrandImg, show: features.sale },
    { href: '/mine/records', kind: 'orders', title: 'orders', img: skin.mineRecordsImg, show: features.sale },
    { href: '/mine/exchange', kind: 'exchange', title: 'exchange', img: skin.mineExchangeImg, show: features.exchange },
    {
      href: '/mine/destory',
      kind: 'destroy',
      title: attributes.destroyTitledReceive ? 'receive' : 'destroy',
      img: skin.mineDestoryImg,
      show: features.exchange,
    },
    { href: '/mine/receive', kind: 'receive', title: 'receive', img: skin.mineReceiveImg, show: features.receive !== null },
    { href: '/mine/chain', kind: 'chain', title: 'chain', img: skin.mineChainImg, show: features.chainUp },
  ];
  const shown = entries.filter((e) => e.show).map((e) => ({ ...e, label: t(`mine.${e.title}`) }));
  const alike = (label: string) => shown.filter((e) => e.label === label).length > 1;
  return shown.map(({ href, kind, label, img }) => ({
    href,
    label,
    subtitle: alike(label) ? t(`mine.holds.${kind}`) : null,
    img,
  }));
}

/** The entries as /mine shows them: four to a row, each its icon, its title and, where it has one, its subtitle. */
export function MineEntries({ entries, placeholderColor }: { entries: MineEntry[]; placeholderColor: string }) {
  return (
    <ul className="grid grid-cols-4 gap-y-4" data-testid="mine-entries">
      {entries.map((entry) => (
        <li key={entry.href}>
          <Link href={entry.href} className="flex flex-col items-center gap-1.5 text-center text-xs text-neutral-700">
            <ArtImage
              src={entry.img}
              alt=""
              width={96}
              height={96}
              sizes="0.8rem"
              className="size-[0.8rem] rounded-[0.2rem] object-cover"
              placeholderColor={placeholderColor}
            />
            <span className="flex flex-col">
              {entry.label}
              {entry.subtitle ? (
                <span className="mt-0.5 px-0.5 text-[0.19rem] leading-snug text-neutral-500" data-testid="mine-entry-subtitle">
                  {entry.subtitle}
                </span>
              ) : null}
            </span>
          </Link>
        </li>
      ))}
    </ul>
  );
}
