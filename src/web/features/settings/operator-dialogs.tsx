import { useId, useMemo, useRef, useState } from 'react';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import { INTL_LOCALES } from '../../../shared/languages.ts';
import type { OperatorSummary } from '../../../shared/operator-schema.ts';
import type { ResetLink } from '../../../shared/password-reset-schema.ts';
import type { TwoFactorPasswordInput } from '../../../shared/two-factor-schema.ts';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { useT } from '../../i18n/translate.tsx';
import { useLanguage } from '../../i18n/use-language.ts';
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
  const t = useT();
  const everyone = target === 'everyone';
  const email = target === null || everyone ? '' : target.email;
  return (
    <ConfirmDialog
      {...dialog}
      title={
        everyone
          ? t('settings.operators.signOutEveryoneTitle')
          : t('settings.operators.signOutTitle', { email })
      }
      confirmLabel={t(everyone ? 'settings.operators.signOutEveryoneConfirm' : 'settings.signOut')}
    >
      <p className="mb-0">
        {everyone
          ? t('settings.operators.signOutEveryoneBody')
          : t('settings.operators.signOutBody', { email })}
      </p>
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
  const t = useT();
  const email = operator?.email ?? '';
  return (
    <ConfirmDialog
      {...dialog}
      title={t('settings.operators.deactivateTitle', { email })}
      confirmLabel={t('settings.operators.deactivate')}
    >
      <p>{t('settings.operators.deactivateBody', { email })}</p>
      <p className="mb-0">{t('settings.operators.deactivateKeeps')}</p>
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
  const t = useT();
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
        title={t('settings.operators.twoFactorOffTitle', { email: operator?.email ?? '' })}
        email={email}
        label={t('settings.operators.yourPassword')}
        submitLabel={t('settings.operators.twoFactorOffButton')}
        danger
        onCancel={onCancel}
        onSubmit={onSubmit}
      >
        <p>{t('settings.operators.twoFactorOffWhen')}</p>
        <p>{t('settings.operators.twoFactorOffCareful')}</p>
      </PasswordStep>
    </GuardedModal>
  );
}

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
  const t = useT();
  const language = useLanguage();
  // The link lasts an hour: its time alone says until when.
  const timeFormat = useMemo(
    () =>
      new Intl.DateTimeFormat(INTL_LOCALES[language], {
        hour: 'numeric',
        minute: '2-digit',
        // Hindi says "शाम 5:44", not CLDR's Latin "5:44 pm".
        ...(language === 'hi' ? { dayPeriod: 'short' } : {}),
      }),
    [language],
  );
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
      <Modal.Header closeButton={!busy} closeLabel={t('settings.close')}>
        <Modal.Title id={titleId}>{t('settings.operators.resetLinkFor', { email })}</Modal.Title>
      </Modal.Header>
      {link ? (
        <>
          <Modal.Body>
            <p>
              {t('settings.operators.resetLinkShown', {
                email,
                until: timeFormat.format(new Date(link.expiresAt)),
              })}
            </p>
            <Form.Group controlId={inputId}>
              <Form.Label>{t('settings.operators.resetLinkLabel', { email })}</Form.Label>
              <Form.Control
                ref={input}
                readOnly
                value={link.url}
                onFocus={(event) => event.currentTarget.select()}
              />
            </Form.Group>
            <p className="mt-2 mb-0" aria-live="polite">
              {copied === 'copied' ? t('settings.operators.linkCopied') : null}
              {copied === 'select' ? t('settings.operators.copySelected') : null}
            </p>
          </Modal.Body>
          <Modal.Footer>
            <Button variant="primary" onClick={() => void copy()}>
              {t('settings.operators.copyLink')}
            </Button>
            <Button variant="secondary" onClick={onClose}>
              {t('settings.done')}
            </Button>
          </Modal.Footer>
        </>
      ) : (
        <>
          <Modal.Body>
            <p className="mb-0">{t('settings.operators.resetLinkAbout', { email })}</p>
          </Modal.Body>
          <Modal.Footer>
            <Button variant="secondary" onClick={onClose} disabled={busy}>
              {t('settings.cancel')}
            </Button>
            <Button variant="primary" onClick={onIssue} disabled={busy}>
              {t('settings.operators.issueLink')}
            </Button>
          </Modal.Footer>
        </>
      )}
    </GuardedModal>
  );
}
