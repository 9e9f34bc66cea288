/** What a collectible's drawing is: how it draws on a picture, and whether the picture is dark under its caption. */
import type { Picture } from './svg';

export type Drawing = { dark: boolean; draw: (p: Picture) => void };
/** A drawing whose bottom is dark: its caption is written in white. */
export const onDark = (draw: (p: Picture) => void): Drawing => ({ dark: true, draw });
/** A drawing whose bottom is light: its caption is written in near-black. */
export const onLight = (draw: (p: Picture) => void): Drawing => ({ dark: false, draw });
/** A collectible's two drawings: its cover (`<code>.svg`) and its second picture (`<code>-2.svg`). */
export type Pair = readonly [Drawing, Drawing];
