import type { ReactNode } from 'react';
import { fieldMessageText } from '../lib/form-errors.ts';
import type { FieldRegistration } from '../lib/use-schema-form.ts';

interface FormFieldProps {
  id: string;
  /** In the chosen language, as `help`. */
  label: string;
  /** From the form: react-hook-form's `register(name)`, or useSchemaForm's. */
  registration: FieldRegistration;
  /** The form's message (shown in the chosen language: fieldMessageText). */
  error?: string | undefined;
  type?: string;
  autoComplete?: string;
  inputMode?: 'text' | 'email' | 'tel' | 'decimal' | 'numeric';
  disabled?: boolean;
  help?: ReactNode;
  /** A longer text (a note) is a textarea of this many rows. */
  rows?: number;
  /** The language of what is typed, when it is not the page's (a Hindi template on an English page). */
  lang?: string;
}

/**
 * A labelled input whose own message sits under it, in the chosen language, when it is invalid. Bootstrap's classes
 * rather than react-bootstrap's Form: the sign-in page has it (decision 0013).
 */
export function FormField({
  id,
  label,
  registration,
  error,
  type = 'text',
  autoComplete,
  inputMode,
  disabled,
  help,
  rows,
  lang,
}: FormFieldProps) {
  const helpId = help ? `${id}-help` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const control = {
    id,
    className: error ? 'form-control is-invalid' : 'form-control',
    autoComplete,
    inputMode,
    disabled,
    lang,
    'aria-invalid': Boolean(error),
    'aria-describedby': [helpId, errorId].filter(Boolean).join(' ') || undefined,
    ...registration,
  };
  return (
    <div className="mb-3">
      <label className="form-label" htmlFor={id}>
        {label}
      </label>
      {rows ? <textarea rows={rows} {...control} /> : <input type={type} {...control} />}
      {help ? (
        <small id={helpId} className="form-text text-muted">
          {help}
        </small>
      ) : null}
      <div className="invalid-feedback" id={errorId}>
        {fieldMessageText(error)}
      </div>
    </div>
  );
}

/**
 * For password managers: whose password a form takes, when the form has no e-mail field of
 * its own (a password change, a reset, a confirmation).
 */
export function UsernameHint({ email }: { email: string }) {
  return (
    <input type="email" name="username" autoComplete="username" value={email} readOnly hidden />
  );
}
