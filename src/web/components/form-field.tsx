import type { ReactNode } from 'react';
import Form from 'react-bootstrap/Form';
import type { UseFormRegisterReturn } from 'react-hook-form';

interface FormFieldProps {
  id: string;
  label: string;
  registration: UseFormRegisterReturn;
  error?: string | undefined;
  type?: string;
  autoComplete?: string;
  inputMode?: 'text' | 'email' | 'tel' | 'decimal' | 'numeric';
  disabled?: boolean;
  help?: ReactNode;
  /** A longer text (a note) is a textarea of this many rows. */
  rows?: number;
}

/** A labelled input whose own message sits under it when it is invalid. */
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
}: FormFieldProps) {
  const helpId = help ? `${id}-help` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  return (
    <Form.Group className="mb-3" controlId={id}>
      <Form.Label>{label}</Form.Label>
      <Form.Control
        {...(rows ? { as: 'textarea' as const, rows } : { type })}
        autoComplete={autoComplete}
        inputMode={inputMode}
        disabled={disabled}
        isInvalid={Boolean(error)}
        aria-invalid={Boolean(error)}
        aria-describedby={[helpId, errorId].filter(Boolean).join(' ') || undefined}
        {...registration}
      />
      {help ? (
        <Form.Text id={helpId} muted>
          {help}
        </Form.Text>
      ) : null}
      <Form.Control.Feedback type="invalid" id={errorId}>
        {error}
      </Form.Control.Feedback>
    </Form.Group>
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
