'use client';

import type { MouseEvent, ReactNode } from 'react';

/** spec §2: button types and sizes. */
export const BUTTON_TYPES = ['primary', 'main', 'info', 'default'] as const;
export const BUTTON_SIZES = ['default', 'md'] as const;
export type ButtonType = (typeof BUTTON_TYPES)[number];
export type ButtonSize = (typeof BUTTON_SIZES)[number];

const TYPE_CLASS: Record<ButtonType, string> = {
  primary: 'bg-skin-button text-skin-button-text shadow-card',
  main: 'bg-skin-1 text-white shadow-card',
  info: 'bg-skin-light text-skin-1',
  default: 'border border-black/10 bg-white text-neutral-800',
};

const SIZE_CLASS: Record<ButtonSize, string> = {
  default: 'h-[0.88rem] px-8 text-base',
  md: 'h-[0.64rem] px-5 text-sm',
};

type Props = {
  type?: ButtonType;
  size?: ButtonSize;
  icon?: ReactNode;
  loading?: boolean;
  disabled?: boolean;
  htmlType?: 'button' | 'submit';
  className?: string;
  onClick?: (event: MouseEvent<HTMLButtonElement>) => void;
  children: ReactNode;
};

/**
 * The storefront button (spec §2): four types, two sizes, optional icon, a loading flag during which clicks are
 * ignored (spec §4), and a press animation (none for reduced-motion users). An invalid type or size is a
 * programming error and throws.
 */
export function Button({
  type = 'default',
  size = 'default',
  icon,
  loading = false,
  disabled = false,
  htmlType = 'button',
  className = '',
  onClick,
  children,
}: Props) {
  if (!(BUTTON_TYPES as readonly string[]).includes(type)) {
    throw new Error(`Button type "${String(type)}" is invalid: must be one of ${BUTTON_TYPES.join(', ')}`);
  }
  if (!(BUTTON_SIZES as readonly string[]).includes(size)) {
    throw new Error(`Button size "${String(size)}" is invalid: must be one of ${BUTTON_SIZES.join(', ')}`);
  }
  return (
    <button
      type={htmlType}
      disabled={disabled}
      aria-busy={loading || undefined}
      data-type={type}
      data-size={size}
      onClick={(event) => {
        if (loading || disabled) {
          event.preventDefault();
          return;
        }
        onClick?.(event);
      }}
      className={`inline-flex items-center justify-center gap-2 rounded-full font-semibold transition-transform active:scale-95 disabled:opacity-50 motion-reduce:transition-none motion-reduce:active:scale-100 ${loading ? 'cursor-progress opacity-80' : ''} ${TYPE_CLASS[type]} ${SIZE_CLASS[size]} ${className}`}
    >
      {loading ? (
        <span
          aria-hidden="true"
          data-testid="button-spinner"
          className="size-[0.3rem] animate-spin rounded-full border-2 border-current border-t-transparent"
        />
      ) : (
        icon && (
          <span aria-hidden="true" className="inline-flex">
            {icon}
          </span>
        )
      )}
      {children}
    </button>
  );
}
