import type { ComplianceLine } from '@/lib/channel/compliance';
import type { CustomerService } from '@/lib/db/schema';
import type { Translator } from '@/lib/i18n/translator';

/**
 * The foot of every store page of a channel (issue 31, "Channels"): its customer-service contact and its compliance
 * footer (the ICP number linking to the MIIT filing site, the public security number to the MPS filing search, the
 * blockchain information service number as text), as mainland regulation asks. Server-rendered with the page, so it is
 * in the first paint; small, in the skin's footer-text colour (`--skin-nav-text`, held to 4.5:1 on the page, the cards
 * and white by lib/channel/skin.ts). Nothing at all when the channel has neither. Where the page has the fixed footer
 * tabs, styles/globals.css (`.site-foot`) lifts it clear of them.
 */
export function SiteFoot({ lines, service, t }: { lines: readonly ComplianceLine[]; service: CustomerService; t: Translator }) {
  const contact = [
    service.phone ? { key: 'phone', node: <a href={`tel:${service.phone.replace(/[^\d+]/g, '')}`}>{service.phone}</a> } : null,
    service.hours ? { key: 'hours', node: <span>{service.hours}</span> } : null,
    service.email ? { key: 'email', node: <a href={`mailto:${service.email}`}>{service.email}</a> } : null,
    service.url
      ? {
          key: 'url',
          node: (
            <a href={service.url} target="_blank" rel="noopener noreferrer">
              {t('siteFoot.serviceOnline')}
            </a>
          ),
        }
      : null,
  ].filter((part) => part !== null);
  if (lines.length === 0 && contact.length === 0) return null;
  return (
    <footer
      aria-label={t('siteFoot.label')}
      data-testid="site-foot"
      className="site-foot space-y-1 px-4 pt-4 pb-5 text-center text-[11px] leading-relaxed text-skin-nav [&_a]:underline [&_a]:underline-offset-2"
    >
      {contact.length > 0 ? (
        <p data-testid="customer-service">
          {t('siteFoot.service')}{' '}
          {contact.map((part, i) => (
            <span key={part.key}>
              {i > 0 ? ' · ' : null}
              {part.node}
            </span>
          ))}
        </p>
      ) : null}
      {lines.length > 0 ? (
        <ul className="flex flex-wrap justify-center gap-x-3 gap-y-1">
          {lines.map((line) => (
            <li key={line.kind} data-filing={line.kind}>
              {line.href ? (
                <a href={line.href} target="_blank" rel="noopener noreferrer">
                  {line.text}
                </a>
              ) : (
                line.text
              )}
            </li>
          ))}
        </ul>
      ) : null}
    </footer>
  );
}
