import type { InputHTMLAttributes } from 'react';

/** A labelled input of the console's forms, with an optional hint under it. */
export function ConsoleField({
  label,
  hint,
  id,
  ...input
}: InputHTMLAttributes<HTMLInputElement> & { label: string; hint?: string; id: string }) {
  return (
    <div className="space-y-1">
      <label htmlFor={id} className="block text-sm font-medium text-gray-800">
        {label}
      </label>
      <input
        id={id}
        {...input}
        aria-describedby={hint ? `${id}-hint` : undefined}
        className="block w-full rounded-md border border-gray-300 bg-white px-3 py-2 text-base text-gray-900 shadow-sm focus:border-blue-600 focus:ring-2 focus:ring-blue-600/30 focus:outline-none disabled:bg-gray-100 disabled:text-gray-600"
      />
      {hint ? (
        <p id={`${id}-hint`} className="text-sm text-gray-600">
          {hint}
        </p>
      ) : null}
    </div>
  );
}

/** The console's main button. */
export function ConsoleButton({
  children,
  disabled,
  type = 'submit',
}: {
  children: React.ReactNode;
  disabled?: boolean;
  type?: 'submit' | 'button';
}) {
  return (
    <button
      type={type}
      disabled={disabled}
      className="inline-flex w-full items-center justify-center rounded-md bg-blue-700 px-4 py-2.5 text-base font-semibold text-white hover:bg-blue-800 disabled:opacity-60"
    >
      {children}
    </button>
  );
}

/** A refusal under a form, read out when it appears. */
export function ConsoleError({ message }: { message: string | null }) {
  return (
    <p role="alert" className="min-h-6 text-sm text-red-700">
      {message ?? ''}
    </p>
  );
}

/** A refusal under the field it names (the console's forms: the call's `data.field`). */
export function FieldError({ id, message }: { id: string; message: string | undefined }) {
  return message ? (
    <p id={id} role="alert" className="mt-1 text-sm text-red-700">
      {message}
    </p>
  ) : null;
}
