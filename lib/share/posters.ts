import 'server-only';
import type { Db } from '../db/client';
import { namedCache, tags } from '../cache/store';
import { hitAll, type Limit } from '../rate-limit/rate-limit';
import type { ChannelThemeInfo } from '../channel/theme';
import type { SaleRecord } from '../sale/schema';
import type { Locale } from '../i18n/locale';
import { translator } from '../i18n/translator';
import type { CertificateView } from '../transfer/schema';
import { composePoster, renderPosterBase, salePosterSubject, type PosterSubject } from './poster';
import { goodsShareUrl, sharerOf } from './codes';
import { mediaStore, type MediaStore } from '../media/store';

/**
 * Share posters as the poster route serves them (issue 36, docs/sharing.md).
 *
 * - The **base** (all but the QR code) is kept per channel, sale and language, in a cache of the process's invalidated
 *   through the console's fan-out (lib/cache/store.ts): a change of the sale's terms (name, cover, price) or of the
 *   channel (its row, its colours) drops it here and in every other process.
 * - The **poster** of one link (a sharer's, or the plain link) is the base with its QR code composited, kept in a
 *   second cache under the same tags, so the same sharer's poster asked again is not drawn again.
 * - Drawing is limited: POSTER_LIMITS per sharer code and per address, counted only when something is drawn. Past
 *   them the route answers 429 and the sharer's last poster stays cached.
 * - Only a valid share code of this channel gets a QR code with `from`; any other `from` gets the plain link.
 */
export const POSTER_LIMITS = { perCodePerHour: 30, perIpPerHour: 60 } as const;
const TTL_MS = 10 * 60_000;

export type PosterRequest = {
  db: Db;
  now: Date;
  channel: { id: number; key: string };
  theme: ChannelThemeInfo;
  origin: string;
  sale: SaleRecord;
  locale: Locale;
  from: string | null;
  ip: string;
  /** Where uploaded covers and logos are read (the process's media store unless said: tests). */
  media?: MediaStore;
  /** POSTER_LIMITS unless said (tests). */
  limits?: { perCodePerHour: number; perIpPerHour: number };
};

export type PosterAnswer = { kind: 'png'; png: Buffer; link: string } | { kind: 'limited'; retryAfterS: number };

export class PosterLimited extends Error {
  constructor(readonly retryAfterS: number) {
    super('too many posters drawn');
  }
}

export async function sharePoster(request: PosterRequest): Promise<PosterAnswer> {
  const { db, channel, sale, locale } = request;
  const sharerId = await sharerOf(db, channel.id, request.from);
  const code = sharerId === null ? null : request.from;
  return drawPoster(request, {
    baseKey: `${channel.key}|${sale.id}|${locale}`,
    tags: [tags.channel(channel.key), tags.channelColours(channel.key), tags.saleTerms(sale.id)],
    subject: (t) => salePosterSubject(sale, t),
    link: goodsShareUrl(request.origin, sale.id, code),
    code,
  });
}

/** A held edition's poster (issue 36: sharing a held collectible): its cover, name and number, the QR code of its public page. */
export type CertificatePosterRequest = Omit<PosterRequest, 'sale' | 'from'> & { certificate: CertificateView };

export async function certificatePoster(request: CertificatePosterRequest): Promise<PosterAnswer> {
  const { channel, certificate, locale } = request;
  return drawPoster(request, {
    // What the base shows of an edition (name, cover, number) does not change when it is given: no holder on it.
    baseKey: `${channel.key}|cert:${certificate.code}|${locale}`,
    tags: [tags.channel(channel.key), tags.channelColours(channel.key)],
    subject: (t) => ({
      cover: certificate.cover,
      name: certificate.name,
      detail: t('share.posterCertificate', { number: certificate.number, total: certificate.amountNumber }),
      price: null,
    }),
    link: `${request.origin}/cert/${certificate.code}`,
    code: null,
  });
}

async function drawPoster(
  request: Omit<PosterRequest, 'sale' | 'from'>,
  poster: {
    baseKey: string;
    tags: string[];
    subject: (t: ReturnType<typeof translator>) => PosterSubject;
    link: string;
    code: string | null;
  },
): Promise<PosterAnswer> {
  const { db, now, locale } = request;
  const { baseKey, link, code } = poster;
  const options = { tags: poster.tags, ttlMs: TTL_MS };
  const limit = async () => {
    const max = request.limits ?? POSTER_LIMITS;
    const limits: Limit[] = [{ bucket: `poster:ip:${request.ip}`, max: max.perIpPerHour, windowMs: 3_600_000 }];
    if (code) limits.push({ bucket: `poster:code:${code}`, max: max.perCodePerHour, windowMs: 3_600_000 });
    const { refused } = await hitAll(db, limits, now);
    if (refused) throw new PosterLimited(Math.max(1, Math.ceil((refused.resetAt.getTime() - now.getTime()) / 1000)));
  };
  try {
    const png = (await namedCache(db, 'share-posters', { maxEntries: 256 }).read(
      `${baseKey}|${code ?? ''}|${request.origin}`,
      options,
      async () => {
        await limit();
        const t = translator(locale);
        const base = (await namedCache(db, 'share-poster-bases', { maxEntries: 64 }).read(baseKey, options, () =>
          renderPosterBase(request.theme, poster.subject(t), t, request.media ?? mediaStore()),
        )) as Buffer;
        return composePoster(base, link);
      },
    )) as Buffer;
    return { kind: 'png', png, link };
  } catch (error) {
    if (error instanceof PosterLimited) return { kind: 'limited', retryAfterS: error.retryAfterS };
    throw error;
  }
}
