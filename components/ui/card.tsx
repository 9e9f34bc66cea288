import type { ComponentPropsWithoutRef, ElementType } from 'react';

export type CardProps<T extends ElementType = 'div'> = { as?: T; className?: string } & Omit<
  ComponentPropsWithoutRef<T>,
  'as' | 'className'
>;

/**
 * The storefront's card: the rounded, skin-coloured surface with the card shadow that lists, panels and results sit
 * on. `as` picks the element (a `li` in a list, a `section` with a heading, a `p` for a line of text); `className`
 * adds layout and padding; everything else (data-testid, aria-*, handlers) goes to the element.
 */
export function Card<T extends ElementType = 'div'>({ as, className = '', ...props }: CardProps<T>) {
  const Element: ElementType = as ?? 'div';
  return <Element className={`rounded-xl bg-skin-card shadow-card ${className}`} {...props} />;
}
