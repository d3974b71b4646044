import type { ReactNode } from 'react';
import Button from 'react-bootstrap/Button';
import Modal from 'react-bootstrap/Modal';

/** "Are you sure ?" before a delete: what will go, then Cancel or Delete. */
export function DeleteDialog({
  show,
  busy,
  onCancel,
  onConfirm,
  children,
}: {
  show: boolean;
  busy: boolean;
  onCancel(): void;
  onConfirm(): void;
  children: ReactNode;
}) {
  return (
    <Modal show={show} onHide={onCancel} centered aria-labelledby="delete-dialog-title">
      <Modal.Header closeButton>
        <Modal.Title id="delete-dialog-title">Are you sure ?</Modal.Title>
      </Modal.Header>
      <Modal.Body>{children}</Modal.Body>
      <Modal.Footer>
        <Button variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
        <Button variant="danger" onClick={onConfirm} disabled={busy}>
          Delete
        </Button>
      </Modal.Footer>
    </Modal>
  );
}
