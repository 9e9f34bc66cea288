'use client';

import type { ReactNode } from 'react';

/**
 * The pieces of the console's channel forms (issue 31, creating a channel and its Settings tab): fields that show the
 * refusal of the field they hold under it, and the reading of a refusal into fields.
 */

/** Field errors by field name. */
export type FieldErrors = Record<string, string>;

/**
 * A refusal's words by the field they name. Input refusals read "field: why; field: why" in the page's language, the
 * field written as the catalogue names it (`fieldWords`: the words → the field); a business refusal names its field in
 * `data.field`. Whatever names no field of the form is kept under `''` for the form's own line.
 */
export function fieldErrors(answer: { message: string; field?: string | null }, fieldWords: Record<string, string>): FieldErrors {
  if (answer.field) return { [answer.field]: answer.message };
  const errors: FieldErrors = {};
  for (const line of answer.message.split(/; |；/)) {
    const match = /^(.+?)(?:: |：)(.*)$/s.exec(line);
    const word = match?.[1]?.trim() ?? '';
    const field = fieldWords[word] ?? fieldWords[word.split('.')[0] ?? ''];
    if (match && field) errors[field] = errors[field] ? `${errors[field]}; ${match[2]}` : match[2]!;
    else errors[''] = errors[''] ? `${errors['']}; ${line}` : line;
  }
  return errors;
}

const INPUT =
  'block w-full rounded-md border bg-white px-3 py-2 text-base text-gray-900 shadow-sm focus:ring-2 focus:outline-none disabled:bg-gray-50 disabled:text-gray-700';
const inputColours = (error?: string) =>
  error ? 'border-red-600 focus:border-red-600 focus:ring-red-600/30' : 'border-gray-300 focus:border-blue-600 focus:ring-blue-600/30';

/** A label, the control, its hint and its refusal (read out and tied to the control). */
export function FieldFrame({
  id,
  label,
  hint,
  error,
  children,
}: {
  id: string;
  label: ReactNode;
  hint?: ReactNode;
  error?: string;
  children: ReactNode;
}) {
  return (
    <div className="space-y-1">
      <label htmlFor={id} className="block text-sm font-medium text-gray-800">
        {label}
      </label>
      {children}
      {hint ? (
        <p id={`${id}-hint`} className="text-sm text-gray-600">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={`${id}-error`} role="alert" className="text-sm text-red-700" data-field-error={id}>
          {error}
        </p>
      ) : null}
    </div>
  );
}

function describedBy(id: string, hint?: ReactNode, error?: string): string | undefined {
  return [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(' ') || undefined;
}

/** A one-line text field. */
export function TextField({
  id,
  name,
  label,
  hint,
  error,
  defaultValue,
  disabled,
  ...rest
}: {
  id: string;
  name: string;
  label: ReactNode;
  hint?: ReactNode;
  error?: string;
  defaultValue?: string | null;
  disabled?: boolean;
  placeholder?: string;
  maxLength?: number;
  inputMode?: 'text' | 'tel' | 'email' | 'url';
  type?: 'text' | 'email' | 'url' | 'tel';
  autoComplete?: string;
  className?: string;
}) {
  return (
    <FieldFrame id={id} label={label} hint={hint} error={error}>
      <input
        id={id}
        name={name}
        defaultValue={defaultValue ?? ''}
        disabled={disabled}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, hint, error)}
        className={`${INPUT} ${inputColours(error)}`}
        {...rest}
      />
    </FieldFrame>
  );
}

/** A text area (the texts and agreements). */
export function TextArea({
  id,
  name,
  label,
  hint,
  error,
  defaultValue,
  disabled,
  rows = 4,
  maxLength,
}: {
  id: string;
  name: string;
  label: ReactNode;
  hint?: ReactNode;
  error?: string;
  defaultValue?: string;
  disabled?: boolean;
  rows?: number;
  maxLength?: number;
}) {
  return (
    <FieldFrame id={id} label={label} hint={hint} error={error}>
      <textarea
        id={id}
        name={name}
        rows={rows}
        maxLength={maxLength}
        defaultValue={defaultValue ?? ''}
        disabled={disabled}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, hint, error)}
        className={`${INPUT} ${inputColours(error)} font-sans`}
      />
    </FieldFrame>
  );
}

/** A choice of one. */
export function SelectField({
  id,
  name,
  label,
  hint,
  error,
  defaultValue,
  disabled,
  options,
}: {
  id: string;
  name: string;
  label: ReactNode;
  hint?: ReactNode;
  error?: string;
  defaultValue?: string;
  disabled?: boolean;
  options: readonly { value: string; label: string }[];
}) {
  return (
    <FieldFrame id={id} label={label} hint={hint} error={error}>
      <select
        id={id}
        name={name}
        defaultValue={defaultValue}
        disabled={disabled}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, hint, error)}
        className={`${INPUT} ${inputColours(error)}`}
      >
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </FieldFrame>
  );
}

/** Several on/off choices under one legend (labels, attributes), with the group's refusal under it. */
export function CheckGroup({
  name,
  legend,
  hint,
  error,
  options,
  checked,
  disabled,
}: {
  name: string;
  legend: ReactNode;
  hint?: ReactNode;
  error?: string;
  options: readonly { value: string; label: string }[];
  checked: readonly string[];
  disabled?: boolean;
}) {
  return (
    <fieldset className="space-y-2" aria-describedby={error ? `${name}-error` : undefined} aria-invalid={error ? true : undefined}>
      <legend className="text-sm font-medium text-gray-800">{legend}</legend>
      {hint ? <p className="text-sm text-gray-600">{hint}</p> : null}
      <div className="flex flex-wrap gap-x-5 gap-y-2">
        {options.map((o) => (
          <label key={o.value} className="inline-flex items-center gap-2 text-sm text-gray-900">
            <input
              type="checkbox"
              name={name}
              value={o.value}
              defaultChecked={checked.includes(o.value)}
              disabled={disabled}
              className="size-4 rounded border-gray-400 text-blue-700"
            />
            {o.label}
          </label>
        ))}
      </div>
      {error ? (
        <p id={`${name}-error`} role="alert" className="text-sm text-red-700" data-field-error={name}>
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}

/** A section's save button and what became of the last save. */
export function SaveRow({
  label,
  busy,
  busyLabel,
  done,
  error,
}: {
  label: string;
  busy: boolean;
  busyLabel: string;
  done: string | null;
  error?: string;
}) {
  return (
    <div className="flex flex-wrap items-center gap-4 pt-2">
      <button
        type="submit"
        disabled={busy}
        className="rounded-md bg-blue-700 px-4 py-2 text-sm font-semibold text-white hover:bg-blue-800 disabled:opacity-60"
      >
        {busy ? busyLabel : label}
      </button>
      <p role="status" className="text-sm text-green-800">
        {done ?? ''}
      </p>
      {error ? (
        <p role="alert" className="text-sm text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}
