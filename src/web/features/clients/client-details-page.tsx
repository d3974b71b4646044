import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import ButtonGroup from 'react-bootstrap/ButtonGroup';
import Card from 'react-bootstrap/Card';
import Col from 'react-bootstrap/Col';
import Form from 'react-bootstrap/Form';
import InputGroup from 'react-bootstrap/InputGroup';
import ListGroup from 'react-bootstrap/ListGroup';
import Modal from 'react-bootstrap/Modal';
import Row from 'react-bootstrap/Row';
import { useForm } from 'react-hook-form';
import { Link, useNavigate, useParams } from 'react-router';
import type { z } from 'zod';
import {
  balanceUpdateSchema,
  CLIENT_CONFLICT_MESSAGE,
  type Client,
} from '../../../shared/client-schema.ts';
import { amountTextToBigPaise } from '../../../shared/money.ts';
import { paths } from '../../../shared/paths.ts';
import { useFlash } from '../../components/flash-messages.tsx';
import { Money } from '../../components/money.tsx';
import { applyServerErrors } from '../../lib/form-errors.ts';
import { failureText, messages } from '../../lib/messages.ts';
import { useDeleteClient, useUpdateClient } from './clients-api.ts';
import { conflictingClient } from './conflict.ts';
import { WithClient } from './with-client.tsx';

function PencilIcon() {
  return (
    <svg width="16" height="16" viewBox="0 0 16 16" fill="currentColor" aria-hidden="true">
      <path d="M12.146.146a.5.5 0 0 1 .708 0l3 3a.5.5 0 0 1 0 .708l-10 10a.5.5 0 0 1-.168.11l-5 2a.5.5 0 0 1-.65-.65l2-5a.5.5 0 0 1 .11-.168zM11.207 2.5 13.5 4.793 14.793 3.5 12.5 1.207zm1.586 3L10.5 3.207 4 9.707V10h.5a.5.5 0 0 1 .5.5v.5h.5a.5.5 0 0 1 .5.5v.5h.293z" />
    </svg>
  );
}

type BalanceInput = z.input<typeof balanceUpdateSchema>;
type BalanceOutput = z.output<typeof balanceUpdateSchema>;

function BalanceForm({ client, onDone }: { client: Client; onDone(): void }) {
  const updateClient = useUpdateClient(client.id);
  const flash = useFlash();
  const form = useForm<BalanceInput, unknown, BalanceOutput>({
    resolver: zodResolver(balanceUpdateSchema),
    reValidateMode: 'onChange',
    defaultValues: { balance: client.balance },
  });
  const error = form.formState.errors.balance?.message;

  const submit = form.handleSubmit(async ({ balance }) => {
    try {
      await updateClient.mutateAsync({ balance, version: client.version });
      flash.success(messages.balanceUpdated.text, messages.balanceUpdated.seconds);
      onDone();
    } catch (failure) {
      const latest = conflictingClient(failure);
      if (latest) {
        form.reset({ balance: latest.balance });
        flash.failure(CLIENT_CONFLICT_MESSAGE, messages.failureSeconds);
        return;
      }
      applyServerErrors(failure, form.setError, ['balance']);
      flash.failure(failureText('The balance was not updated', failure), messages.failureSeconds);
    }
  });

  return (
    <Form noValidate onSubmit={submit} aria-label="Update balance" className="mt-2">
      <Form.Label htmlFor="balance-input" className="visually-hidden">
        New balance
      </Form.Label>
      <InputGroup hasValidation>
        <Form.Control
          id="balance-input"
          inputMode="decimal"
          autoComplete="off"
          isInvalid={Boolean(error)}
          aria-invalid={Boolean(error)}
          aria-describedby={error ? 'balance-input-error' : undefined}
          {...form.register('balance')}
        />
        <Button type="submit" variant="outline-dark" disabled={form.formState.isSubmitting}>
          Update
        </Button>
        <Form.Control.Feedback type="invalid" id="balance-input-error">
          {error}
        </Form.Control.Feedback>
      </InputGroup>
    </Form>
  );
}

function DeleteDialog({
  show,
  onCancel,
  onConfirm,
  busy,
}: {
  show: boolean;
  onCancel(): void;
  onConfirm(): void;
  busy: boolean;
}) {
  return (
    <Modal show={show} onHide={onCancel} centered aria-labelledby="delete-dialog-title">
      <Modal.Header closeButton>
        <Modal.Title id="delete-dialog-title">Are you sure ?</Modal.Title>
      </Modal.Header>
      <Modal.Body>The client and their balance will be removed.</Modal.Body>
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

function ClientDetails({ client }: { client: Client }) {
  const [showBalanceForm, setShowBalanceForm] = useState(false);
  const [confirmingDelete, setConfirmingDelete] = useState(false);
  const deleteClient = useDeleteClient(client.id);
  const flash = useFlash();
  const navigate = useNavigate();
  const owing = amountTextToBigPaise(client.balance) > 0n;

  async function remove() {
    try {
      await deleteClient.mutateAsync();
      setConfirmingDelete(false);
      flash.success(messages.clientDeleted.text, messages.clientDeleted.seconds);
      navigate(paths.dashboard);
    } catch (error) {
      setConfirmingDelete(false);
      flash.failure(failureText('The client was not removed', error), messages.failureSeconds);
    }
  }

  return (
    <>
      <Row className="mb-2">
        <Col xs={6}>
          <Link to={paths.dashboard} className="btn btn-link ps-0">
            Back to Dashboard
          </Link>
        </Col>
        <Col xs={6} className="text-end">
          <ButtonGroup>
            <Link to={paths.editClient(client.id)} className="btn btn-secondary">
              Edit
            </Link>
            <Button variant="danger" onClick={() => setConfirmingDelete(true)}>
              Delete
            </Button>
          </ButtonGroup>
        </Col>
      </Row>
      <Card>
        <Card.Header as="h1" className="h3">
          {client.fname} {client.lname}
        </Card.Header>
        <Card.Body>
          <Row>
            <Col md={8} sm={6}>
              <h2 className="h5">
                Client Id: <span className="text-secondary font-monospace">{client.id}</span>
              </h2>
            </Col>
            <Col md={4} sm={6} className="text-md-end">
              <h2 className="h4">
                Balance:{' '}
                <Money
                  amount={client.balance}
                  className={owing ? 'balance-owing' : 'balance-clear'}
                />{' '}
                <Button
                  variant="link"
                  size="sm"
                  className="p-0 align-baseline"
                  aria-label="Edit balance"
                  aria-expanded={showBalanceForm}
                  onClick={() => setShowBalanceForm((shown) => !shown)}
                >
                  <PencilIcon />
                </Button>
              </h2>
              {showBalanceForm ? (
                <BalanceForm
                  key={client.version}
                  client={client}
                  onDone={() => setShowBalanceForm(false)}
                />
              ) : null}
            </Col>
          </Row>
          <hr />
          <ListGroup>
            <ListGroup.Item>Contact Email: {client.email}</ListGroup.Item>
            <ListGroup.Item>Contact Phone: {client.phone}</ListGroup.Item>
          </ListGroup>
        </Card.Body>
      </Card>
      <DeleteDialog
        show={confirmingDelete}
        busy={deleteClient.isPending}
        onCancel={() => setConfirmingDelete(false)}
        onConfirm={() => void remove()}
      />
    </>
  );
}

export function ClientDetailsPage() {
  const { id = '' } = useParams();
  return <WithClient id={id}>{(client) => <ClientDetails client={client} />}</WithClient>;
}
