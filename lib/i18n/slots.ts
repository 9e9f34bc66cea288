/**
 * Messages with parts only the browser knows (a ticking countdown), without shipping the message formatter: the
 * server formats the message with a marker in place of each slot (`slotArgs`), `toSlotted` cuts it there, and the
 * browser puts the values in (`fillSlots`). Everything else about the message (word order, plurals of other
 * arguments) is the catalogue's, formatted by use-intl on the server as usual.
 */
const MARK = '\uE000';

/** The arguments to format a message with so that each named slot can be found again. */
export function slotArgs<S extends string>(...names: S[]): Record<S, string> {
  return Object.fromEntries(names.map((name) => [name, `${MARK}${name}${MARK}`])) as Record<S, string>;
}

/** A formatted message cut at its slots: literal text at even indexes, slot names at odd ones. */
export type Slotted = string[];

export function toSlotted(formatted: string): Slotted {
  return formatted.split(MARK);
}

export function fillSlots(parts: Slotted, values: Record<string, string>): string {
  return parts.map((part, i) => (i % 2 === 1 ? (values[part] ?? '') : part)).join('');
}
