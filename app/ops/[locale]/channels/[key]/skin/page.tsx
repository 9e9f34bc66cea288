import { getDb } from '@/lib/db/client';
import { parseSkin, SKIN_COLOR_FIELDS } from '@/lib/channel/skin';
import { MAX_IMAGE_BYTES } from '@/lib/media/image';
import { msg, renderMessage } from '@/lib/procedure/messages';
import { readSales } from '@/lib/page/cached-reads';
import { consoleTitled, consoleWords } from '@/lib/page/console';
import { requireConsoleChannel, type ConsoleChannelParams } from '@/lib/page/console-channel';
import { SKIN_WRITERS } from '@/lib/operator/skin-procedures';
import { ConsoleShell } from '@/components/ops/console-shell';
import { ChannelTabs } from '@/components/ops/channel-tabs';
import { SkinEditor, type SkinEditorWords } from '@/components/ops/skin-editor';
import { SKIN_UPLOAD_FIELDS } from '@/components/ops/skin-fields';

type Props = { params: Promise<ConsoleChannelParams> };

export const generateMetadata = consoleTitled((t) => t('ops.skin.title'));

/**
 * A channel's skin in the console (issue 31, "Channels"): its colours and brand images with a live preview, published
 * in one write. Owners and managers granted the channel edit it; support sees it read-only.
 */
export default async function ChannelSkinPage({ params }: Props) {
  const { locale, t } = await consoleWords(params);
  const { operator, channel } = await requireConsoleChannel(params);
  const skin = parseSkin(channel.skinJson) as Record<string, string | undefined>;
  const published = Object.fromEntries([...SKIN_COLOR_FIELDS, ...SKIN_UPLOAD_FIELDS].map((f) => [f, skin[f] ?? null])) as Parameters<
    typeof SkinEditor
  >[0]['published'];
  const sales = await readSales({ db: getDb(), now: new Date(), channelId: channel.id }, { pageCount: 1, pageSize: 1 });
  // Texts with slots filled on the client as the operator types: rendered here with their slots kept.
  const slot = (name: string) => `{${name}}`;
  const words: SkinEditorWords = {
    colours: t('ops.skin.colours'),
    images: t('ops.skin.images'),
    readOnly: t('ops.skin.readOnly'),
    colour: Object.fromEntries(SKIN_COLOR_FIELDS.map((f) => [f, t(`ops.skin.colour.${f}`)])) as SkinEditorWords['colour'],
    picker: t('ops.skin.picker', { field: slot('field') }),
    badColour: t('ops.skin.badColour'),
    image: Object.fromEntries(SKIN_UPLOAD_FIELDS.map((f) => [f, t(`ops.skin.image.${f}`)])) as SkinEditorWords['image'],
    imageHint: Object.fromEntries(SKIN_UPLOAD_FIELDS.map((f) => [f, t(`ops.skin.imageHint.${f}`)])) as SkinEditorWords['imageHint'],
    notSet: t('ops.skin.notSet'),
    upload: t('ops.skin.upload', { field: slot('field') }),
    uploading: t('ops.skin.uploading'),
    uploadFailed: t('ops.skin.uploadFailed'),
    tooLarge: renderMessage(msg('mediaTooLarge', { max: MAX_IMAGE_BYTES / 1024 / 1024 }), locale),
    contrastLow: t('ops.skin.contrast.low', { text: slot('text'), background: slot('background'), ratio: slot('ratio') }),
    contrastVariant: t('ops.skin.contrast.variant', { variant: slot('variant') }),
    contrastAsIs: t('ops.skin.contrast.asIs'),
    white: t('ops.skin.contrast.white'),
    preview: t('ops.skin.preview'),
    previewFrame: t('ops.skin.previewFrame', { name: channel.name }),
    view: { home: t('ops.skin.view.home'), goods: t('ops.skin.view.goods') },
    noGoods: t('ops.skin.noGoods'),
    publish: t('ops.skin.publish'),
    publishing: t('ops.skin.publishing'),
    discard: t('ops.skin.discard'),
    // One line per count the editor can show (every field changed at most), each written as the catalogue writes numbers.
    unpublished: Array.from({ length: SKIN_COLOR_FIELDS.length + SKIN_UPLOAD_FIELDS.length + 1 }, (_, count) =>
      t('ops.skin.unpublished', { count }),
    ),
    published: t('ops.skin.published'),
    failed: t('ops.skin.failed'),
  };
  return (
    <ConsoleShell t={t} locale={locale} operator={operator} current="channels">
      <ChannelTabs t={t} channel={channel} current="skin" />
      <p className="mb-6 max-w-3xl text-sm text-gray-700">{t('ops.skin.intro')}</p>
      <SkinEditor
        channel={{ key: channel.key, name: channel.name }}
        published={published}
        canWrite={SKIN_WRITERS.includes(operator.role)}
        locale={locale}
        words={words}
        maxUploadBytes={MAX_IMAGE_BYTES}
        hasGoods={sales.records.length > 0}
      />
    </ConsoleShell>
  );
}
