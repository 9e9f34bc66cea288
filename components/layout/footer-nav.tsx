import Link from 'next/link';
import type { ReactNode } from 'react';
import { LineIcon } from '@/components/ui/line-icon';
import { channelFeatures, type Label } from '@/lib/channel/labels';
import type { ChannelThemeInfo } from '@/lib/channel/theme';
import type { Translator } from '@/lib/i18n/translator';

export type FooterTab = 'home' | 'active' | 'receive' | 'chain' | 'mine';

/**
 * Footer navigation of the pages the spec gives a footer (spec §2). Tabs follow the channel's labels
 * (spec §6): home with label 1, activity with 2 (not for the class that cannot open /active), receive with 3 (the old
 * list for the gift-only class, where its home leads), chain-up with 4; mine always.
 */
export function FooterNav({
  labels,
  attributes,
  current,
  t,
  dot,
}: {
  labels: readonly Label[];
  attributes: ChannelThemeInfo['attributes'];
  current: FooterTab;
  t: Translator;
  /**
   * A tab with something new behind it (issue 32: Mine, where the notices are, when a buyer has unread ones): `node` is
   * the dot, placed on the tab's icon (issue 34: a client part that shows it once the buyer's call answered).
   */
  dot?: { tab: FooterTab; node: ReactNode };
}) {
  const features = channelFeatures(labels, attributes);
  const tabs: { tab: FooterTab; href: string; label: string; icon: string }[] = [];
  if (features.sale)
    tabs.push({ tab: 'home', href: '/', label: t('nav.home'), icon: 'M3 10.5 12 3l9 7.5V21a1 1 0 0 1-1 1h-5v-7h-6v7H4a1 1 0 0 1-1-1z' });
  if (features.activityPage) tabs.push({ tab: 'active', href: '/active', label: t('nav.active'), icon: 'M4 7h13l-3-3M20 17H7l3 3' });
  if (features.receive)
    tabs.push({
      tab: 'receive',
      href: features.receive,
      label: t('nav.receive'),
      icon: 'M4 11h16v10H4zM2 7h20v4H2zM12 7v14M12 7c-2-4-6-4-6-1s6 1 6 1zm0 0c2-4 6-4 6-1s-6 1-6 1z',
    });
  if (features.chainUp)
    tabs.push({
      tab: 'chain',
      href: '/chain',
      label: t('nav.chain'),
      icon: 'M10 14a4 4 0 0 0 5.7 0l3-3a4 4 0 0 0-5.7-5.7l-1 1M14 10a4 4 0 0 0-5.7 0l-3 3a4 4 0 0 0 5.7 5.7l1-1',
    });
  tabs.push({
    tab: 'mine',
    href: '/mine',
    label: t('nav.mine'),
    icon: 'M12 12a4.5 4.5 0 1 0 0-9 4.5 4.5 0 0 0 0 9zM3.5 21a8.5 8.5 0 0 1 17 0',
  });

  return (
    <nav
      aria-label={t('nav.label')}
      data-footer-nav
      className="fixed inset-x-0 bottom-0 z-20 mx-auto flex max-w-(--container-app) border-t border-black/5 bg-skin-card pb-[env(safe-area-inset-bottom)]"
    >
      {tabs.map(({ tab, href, label, icon }) => {
        const selected = tab === current;
        return (
          <Link
            key={tab}
            href={href}
            aria-current={selected ? 'page' : undefined}
            className={`flex flex-1 flex-col items-center gap-1 py-2.5 text-xs ${selected ? 'font-semibold text-skin-nav-selected' : 'text-skin-nav'}`}
          >
            <span className="relative">
              <LineIcon className="size-[0.44rem]" strokeWidth={1.8}>
                <path d={icon} />
              </LineIcon>
              {dot?.tab === tab ? dot.node : null}
            </span>
            {label}
          </Link>
        );
      })}
    </nav>
  );
}
