import { type ReactNode, useId } from 'react';
import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';
import { useT } from '../i18n/translate.tsx';

/** "Are you sure?" before something that cannot be taken back: what happens, then Cancel or go. */
export function ConfirmDialog({
  show,
  busy,
  title,
  confirmLabel,
  onCancel,
  onConfirm,
  onExited,
  restoreFocus,
  children,
}: {
  show: boolean;
  busy: boolean;
  title: ReactNode;
  confirmLabel: string;
  onCancel(): void;
  onConfirm(): void;
  /** Once it has faded out: what it is about can go then, not before (the title would flicker). */
  onExited?: () => void;
  /** False when something else than the button that opened it is to take the focus. */
  restoreFocus?: boolean;
  children: ReactNode;
}) {
  const t = useT();
  const titleId = useId();
  return (
    <Modal
      show={show}
      onHide={onCancel}
      onExited={onExited}
      restoreFocus={restoreFocus}
      centered
      aria-labelledby={titleId}
    >
      <Modal.Header closeButton closeLabel={t('shell.close')}>
        <Modal.Title id={titleId}>{title}</Modal.Title>
      </Modal.Header>
      <Modal.Body>{children}</Modal.Body>
      <Modal.Footer>
        <Button variant="secondary" onClick={onCancel}>
          {t('shell.cancel')}
        </Button>
        <Button variant="danger" onClick={onConfirm} disabled={busy}>
          {confirmLabel}
        </Button>
      </Modal.Footer>
    </Modal>
  );
}
