import { zodResolver } from '@hookform/resolvers/zod';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal, { type ModalProps } from 'react-bootstrap/Modal';
import { useForm } from 'react-hook-form';
import {
  type TwoFactorPasswordInput,
  twoFactorPasswordSchema,
} from '../../../shared/two-factor-schema.ts';
import { FormField, UsernameHint } from '../../components/form-field.tsx';
import { errorText } from '../../i18n/errors.ts';
import { useT } from '../../i18n/translate.tsx';
import { ApiError } from '../../lib/api-client.ts';
import { applyServerErrors } from '../../lib/form-errors.ts';

/**
 * A settings dialog that stays open while its request runs (`busy`: nothing closes it) and,
 * while `guarded` (busy, or showing something shown only once), ignores a stray click beside
 * it and Escape: only its own buttons close it then.
 */
export function GuardedModal({
  busy,
  guarded = busy,
  onHide,
  children,
  ...props
}: Omit<ModalProps, 'onHide' | 'backdrop' | 'keyboard' | 'centered'> & {
  busy: boolean;
  guarded?: boolean;
  onHide(): void;
}) {
  return (
    <Modal
      {...props}
      onHide={busy ? () => {} : onHide}
      backdrop={guarded ? 'static' : true}
      keyboard={!guarded}
      centered
    >
      {children}
    </Modal>
  );
}

/** A refusal that is not about the field (too many attempts, no network): the dialog stays open. */
export function Failure({ text }: { text: string | null }) {
  return text ? (
    <Alert variant="danger" className="mb-0">
      {text}
    </Alert>
  ) : null;
}

/**
 * The title of a dialog's later step, which takes the focus when the step appears: the field
 * or button that had it went with the step before, and focus would fall out of the dialog.
 */
export function StepTitle({ id, children }: { id: string; children: ReactNode }) {
  const title = useRef<HTMLDivElement>(null);
  useEffect(() => title.current?.focus(), []);
  return (
    // Focused to be read from, not a control: no ring, like the pages' focused headings.
    <Modal.Title id={id} ref={title} tabIndex={-1} style={{ outline: 'none' }}>
      {children}
    </Modal.Title>
  );
}

/**
 * The signed-in operator's password, asked for in a dialog before something a screen left
 * signed in must not do alone (two-factor sign-in set up, turned off or given new backup
 * codes; an operator's turned off by an administrator). A wrong one is said under the field.
 */
export function PasswordStep({
  id,
  titleId,
  title,
  email,
  label,
  submitLabel,
  danger = false,
  onCancel,
  onSubmit,
  children,
}: {
  id: string;
  titleId: string;
  title: string;
  /** The signed-in operator's, for password managers. */
  email: string;
  /** "Current password" unless given. */
  label?: string;
  submitLabel: string;
  danger?: boolean;
  onCancel(): void;
  onSubmit(input: TwoFactorPasswordInput): Promise<void>;
  children: ReactNode;
}) {
  const t = useT();
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<TwoFactorPasswordInput>({
    resolver: zodResolver(twoFactorPasswordSchema),
    defaultValues: { currentPassword: '' },
  });
  const { errors, isSubmitting } = form.formState;

  const submit = form.handleSubmit(async (values) => {
    setFailure(null);
    try {
      await onSubmit(values);
    } catch (error) {
      applyServerErrors(error, form.setError, ['currentPassword']);
      if (!(error instanceof ApiError && error.fieldErrors.currentPassword)) {
        setFailure(errorText(error));
      }
    }
  });

  return (
    <Form noValidate onSubmit={submit} aria-labelledby={titleId}>
      <Modal.Header closeButton={!isSubmitting} closeLabel={t('settings.close')}>
        <Modal.Title id={titleId}>{title}</Modal.Title>
      </Modal.Header>
      <Modal.Body>
        {children}
        <UsernameHint email={email} />
        <FormField
          id={id}
          label={label ?? t('settings.currentPassword')}
          type="password"
          autoComplete="current-password"
          registration={form.register('currentPassword')}
          error={errors.currentPassword?.message}
        />
        <Failure text={failure} />
      </Modal.Body>
      <Modal.Footer>
        <Button variant="secondary" onClick={onCancel} disabled={isSubmitting}>
          {t('settings.cancel')}
        </Button>
        <Button type="submit" variant={danger ? 'danger' : 'primary'} disabled={isSubmitting}>
          {submitLabel}
        </Button>
      </Modal.Footer>
    </Form>
  );
}
