import { useId, useRef, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import type { OperatorSummary } from '../../../shared/operator-schema.ts';
import type { ResetLink } from '../../../shared/password-reset-schema.ts';
import type { TwoFactorPasswordInput } from '../../../shared/two-factor-schema.ts';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { copyText } from '../../lib/clipboard.ts';
import { GuardedModal, PasswordStep } from './password-step.tsx';

/** Whose sessions an administrator is about to end: one operator, or everyone else. */
export type SessionsTarget = OperatorSummary | 'everyone';

/** "Are you sure?" before sessions end: who is signed out, and what that does to them. */
export function EndSessionsDialog({
  target,
  ...dialog
}: {
  target: SessionsTarget | null;
  show: boolean;
  busy: boolean;
  onCancel(): void;
  onConfirm(): void;
  onExited(): void;
}) {
  const everyone = target === 'everyone';
  const who = target === null || everyone ? '' : target.email;
  return (
    <ConfirmDialog
      {...dialog}
      title={everyone ? 'Sign out every operator?' : `Sign out ${who}?`}
      confirmLabel={everyone ? 'Sign out everyone' : 'Sign out'}
    >
      {everyone ? (
        <p className="mb-0">
          Every session but this one ends, on every device: everyone else, and you on your other
          devices, must sign in again. Open pages stop updating at once.
        </p>
      ) : (
        <p className="mb-0">
          Every session of {who} ends, on every device: they must sign in again. Their open pages
          stop updating at once. Their account and password stay as they are.
        </p>
      )}
    </ConfirmDialog>
  );
}

/**
 * "Are you sure?" before an operator is deactivated: what it does at once (signed out
 * everywhere) and what it does not (their clients stay; reactivating undoes it).
 */
export function DeactivateDialog({
  operator,
  ...dialog
}: {
  operator: OperatorSummary | null;
  show: boolean;
  busy: boolean;
  onCancel(): void;
  onConfirm(): void;
  onExited(): void;
  /** False when something else than the button that opened it is to take the focus. */
  restoreFocus: boolean;
}) {
  const who = operator?.email ?? '';
  return (
    <ConfirmDialog {...dialog} title={`Deactivate ${who}?`} confirmLabel="Deactivate">
      <p>
        {who} is signed out everywhere at once: every session ends, on every device, and their open
        pages go to the sign-in page. They cannot sign in again, nor use a reset link, until you
        reactivate them.
      </p>
      <p className="mb-0">
        Their clients and their password stay as they are: reactivated, they sign in as before.
      </p>
    </ConfirmDialog>
  );
}

/**
 * Turning off an operator's two-factor sign-in, for one who lost both their phone and their
 * backup codes: with the administrator's own password, since it lets the operator's password
 * alone sign in. A wrong password is said under the field, and the dialog stays open.
 */
export function TwoFactorOffDialog({
  operator,
  email,
  show,
  busy,
  restoreFocus,
  onCancel,
  onSubmit,
  onExited,
}: {
  operator: OperatorSummary | null;
  /** The administrator's own, for password managers. */
  email: string;
  show: boolean;
  busy: boolean;
  onCancel(): void;
  /** Turns it off; a refusal thrown is shown in the dialog. */
  onSubmit(input: TwoFactorPasswordInput): Promise<void>;
  /** Once it has faded out: the typed password goes with it. */
  onExited(): void;
  /** False when something else than the button that opened it is to take the focus. */
  restoreFocus: boolean;
}) {
  const titleId = useId();
  return (
    <GuardedModal
      show={show}
      busy={busy}
      onHide={onCancel}
      onExited={onExited}
      restoreFocus={restoreFocus}
      aria-labelledby={titleId}
    >
      <PasswordStep
        id="operator-two-factor-off-password"
        titleId={titleId}
        title={`Turn off two-factor sign-in for ${operator?.email ?? ''}?`}
        email={email}
        label="Your password"
        submitLabel="Turn off two-factor"
        danger
        onCancel={onCancel}
        onSubmit={onSubmit}
      >
        <p>
          For an operator who lost both the phone with their authenticator app and their backup
          codes: they then sign in with their password alone, and can turn two-factor sign-in on
          again from their settings.
        </p>
        <p>
          Be sure it is them who asks: with it off, their password is all it takes to sign in as
          them.
        </p>
      </PasswordStep>
    </GuardedModal>
  );
}

const timeFormat = new Intl.DateTimeFormat('en-IN', { hour: 'numeric', minute: '2-digit' });

/**
 * A one-time reset link for an operator who forgot their password: asked for, then shown
 * once to copy and hand over. The administrator never sees or chooses the password.
 */
export function ResetLinkDialog({
  operator,
  show,
  link,
  busy,
  onIssue,
  onClose,
  onExited,
}: {
  operator: OperatorSummary | null;
  show: boolean;
  /** The issued link, once there is one. */
  link: ResetLink | null;
  busy: boolean;
  onIssue(): void;
  onClose(): void;
  /** Once it has faded out: the link is forgotten then (it is shown once). */
  onExited(): void;
}) {
  const titleId = useId();
  const inputId = useId();
  const input = useRef<HTMLInputElement>(null);
  const [copied, setCopied] = useState<'copied' | 'select' | null>(null);
  const email = operator?.email ?? '';

  async function copy() {
    if (!link) return;
    if (await copyText(link.url)) {
      setCopied('copied');
    } else {
      // No clipboard here: the link is selected for the operator to copy.
      input.current?.select();
      setCopied('select');
    }
  }

  // The link is shown once, and a link being issued replaces the earlier one: neither a stray
  // click beside the dialog nor Escape may close it then, only Done (or the close button).
  const guarded = link !== null || busy;
  return (
    <GuardedModal
      show={show}
      busy={busy}
      guarded={guarded}
      onHide={onClose}
      onExited={() => {
        setCopied(null);
        onExited();
      }}
      aria-labelledby={titleId}
    >
      <Modal.Header closeButton={!busy}>
        <Modal.Title id={titleId}>Password reset link for {email}</Modal.Title>
      </Modal.Header>
      {link ? (
        <>
          <Modal.Body>
            <p>
              Copy this link now and hand it to {email} yourself: it is shown only this once. With
              it they choose a new password, once, until{' '}
              {timeFormat.format(new Date(link.expiresAt))}.
            </p>
            <Form.Group controlId={inputId}>
              <Form.Label>Reset link for {email}</Form.Label>
              <Form.Control
                ref={input}
                readOnly
                value={link.url}
                onFocus={(event) => event.currentTarget.select()}
              />
            </Form.Group>
            <p className="mt-2 mb-0" aria-live="polite">
              {copied === 'copied' ? 'Link copied.' : null}
              {copied === 'select' ? 'Copy the selected link with Ctrl+C (⌘C on a Mac).' : null}
            </p>
          </Modal.Body>
          <Modal.Footer>
            <Button variant="primary" onClick={() => void copy()}>
              Copy link
            </Button>
            <Button variant="secondary" onClick={onClose}>
              Done
            </Button>
          </Modal.Footer>
        </>
      ) : (
        <>
          <Modal.Body>
            <p className="mb-0">
              A link with which {email} chooses a new password: you will not see or choose it. It
              works once, for an hour, and replaces any earlier link. When it is used, every session
              of {email} ends.
            </p>
          </Modal.Body>
          <Modal.Footer>
            <Button variant="secondary" onClick={onClose} disabled={busy}>
              Cancel
            </Button>
            <Button variant="primary" onClick={onIssue} disabled={busy}>
              Issue link
            </Button>
          </Modal.Footer>
        </>
      )}
    </GuardedModal>
  );
}
