import { contrastRatio, readableOn, TEXT_CONTRAST } from '@/lib/channel/contrast';
import type { SkinColorField } from '@/lib/channel/skin-colours';

/**
 * The text-on-colour pairs the store's pages use (issue 31: the skin editor warns where text would fall below 4.5:1,
 * lib/channel/contrast.ts), each with the backgrounds it sits on and whether the store darkens it for text
 * (skinCssVariables: `--skin-sign-text` for prices, `--skin-nav-text` for the footer's tabs). Pure.
 */
export const TEXT_PAIRS: readonly { text: SkinColorField; on: readonly (SkinColorField | 'white')[]; variant: boolean }[] = [
  // Titles, names and facts (text-skin-1) on cards and on the page.
  { text: 'color1', on: ['cardBgColor', 'pageBgColor'], variant: false },
  { text: 'color2', on: ['cardBgColor', 'pageBgColor'], variant: false },
  // Prices (text-skin-sign) on white, the cards and the page: the store darkens them to read.
  { text: 'signColor', on: ['white', 'cardBgColor', 'pageBgColor'], variant: true },
  // The buy button's words on the button.
  { text: 'buttonColor', on: ['buttonBgColor'], variant: false },
  // The footer's tabs on the footer (a card): the unselected ones are darkened to read, the selected one is not.
  { text: 'navDefaultIconColor', on: ['white', 'cardBgColor', 'pageBgColor'], variant: true },
  { text: 'navIconSelectColor', on: ['cardBgColor'], variant: false },
];

export type ContrastWarning = {
  text: SkinColorField;
  /** The background it reads worst on. */
  background: SkinColorField | 'white';
  /** Its contrast there, to one decimal. */
  ratio: number;
  /** The colour buyers will see the text in (the store's darkened variant), or null when the store shows it as it is. */
  variant: string | null;
};

/** Each text colour of `colours` that reads below 4.5:1 on a background it is shown on. Colours that are not hex are not judged. */
export function contrastWarnings(colours: Record<SkinColorField, string>): ContrastWarning[] {
  const warnings: ContrastWarning[] = [];
  for (const pair of TEXT_PAIRS) {
    const backgrounds = pair.on.map((b) => (b === 'white' ? '#ffffff' : colours[b]));
    let worst: { background: SkinColorField | 'white'; ratio: number } | null = null;
    pair.on.forEach((background, i) => {
      const ratio = contrastRatio(colours[pair.text], backgrounds[i]!);
      if (ratio !== null && (worst === null || ratio < worst.ratio)) worst = { background, ratio };
    });
    const found = worst as { background: SkinColorField | 'white'; ratio: number } | null;
    if (!found || found.ratio >= TEXT_CONTRAST) continue;
    warnings.push({
      text: pair.text,
      background: found.background,
      ratio: Math.floor(found.ratio * 10) / 10,
      variant: pair.variant ? readableOn(colours[pair.text], backgrounds) : null,
    });
  }
  return warnings;
}
