import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useRef, useState } from 'react';
import Button from 'react-bootstrap/Button';
import ButtonGroup from 'react-bootstrap/ButtonGroup';
import Card from 'react-bootstrap/Card';
import Col from 'react-bootstrap/Col';
import Form from 'react-bootstrap/Form';
import InputGroup from 'react-bootstrap/InputGroup';
import ListGroup from 'react-bootstrap/ListGroup';
import Row from 'react-bootstrap/Row';
import { useForm } from 'react-hook-form';
import { Link, useLocation, useNavigate, useParams } from 'react-router';
import type * as z from 'zod/mini';
import { balanceUpdateSchema } from '../../shared/balance-schema.ts';
import type { Client } from '../../shared/client-schema.ts';
import { LANGUAGE_NAMES } from '../../shared/languages.ts';
import { formatInr, paiseFromAmount } from '../../shared/money.ts';
import { paths } from '../../shared/paths.ts';
import { ConfirmDialog } from '../components/confirm-dialog.tsx';
import { useFlash } from '../components/flash-messages.tsx';
import { lazyDialog } from '../components/lazy-dialog.tsx';
import { Balance } from '../components/money.tsx';
import { usePageTitle } from '../components/page-title.ts';
import { ClientPhone } from '../features/clients/client-phone.tsx';
import {
  restoreDeletedClient,
  useDeleteClient,
  useUpdateClient,
} from '../features/clients/clients-api.ts';
import { dayOrNever } from '../features/clients/clients-table.tsx';
import { conflictingClient } from '../features/clients/conflict.ts';
import { lastListPlace } from '../features/clients/list-place.ts';
import { WithClient } from '../features/clients/with-client.tsx';
import { ClaimsPanel } from '../features/collect/claims-panel.tsx';
import { PromisePanel } from '../features/collect/promise-panel.tsx';
import { RemindButton } from '../features/collect/remind-buttons.tsx';
import { RemindersHistory } from '../features/collect/reminders-history.tsx';
import { EntryForm } from '../features/ledger/entry-form.tsx';
import { LedgerHistory } from '../features/ledger/ledger-history.tsx';
import { OverdueSince } from '../features/ledger/overdue-since.tsx';
import { loadCatalogues } from '../i18n/language.ts';
import { T, translate, useT } from '../i18n/translate.tsx';
import { useMay } from '../lib/books.ts';
import type { DetailsPageState, EntryFormKind } from '../lib/details-page-state.ts';
import { applyServerErrors, fieldMessageText } from '../lib/form-errors.ts';
import { failureText, messages } from '../lib/messages.ts';

function PencilIcon() {
  return (
    <svg width="16" height="16" viewBox="0 0 16 16" fill="currentColor" aria-hidden="true">
      <path d="M12.146.146a.5.5 0 0 1 .708 0l3 3a.5.5 0 0 1 0 .708l-10 10a.5.5 0 0 1-.168.11l-5 2a.5.5 0 0 1-.65-.65l2-5a.5.5 0 0 1 .11-.168zM11.207 2.5 13.5 4.793 14.793 3.5 12.5 1.207zm1.586 3L10.5 3.207 4 9.707V10h.5a.5.5 0 0 1 .5.5v.5h.5a.5.5 0 0 1 .5.5v.5h.293z" />
    </svg>
  );
}

// Sharing is now and then: the dialog (and the modal code under it) loads when opened.
const ShareDialog = lazyDialog(
  'share dialog',
  () => import('../features/collect/share-dialog.tsx').then((m) => m.ShareDialog),
  'clients.details.shareDialog',
);

// Who did what to the client comes after the rest of the page, with its words.
const ClientActivity = lazy(() =>
  Promise.all([
    import('../features/books/client-activity.tsx').then((m) => m.ClientActivity),
    loadCatalogues('books'),
  ]).then(([ClientActivity]) => ({ default: ClientActivity })),
);

type BalanceInput = z.input<typeof balanceUpdateSchema>;
type BalanceOutput = z.output<typeof balanceUpdateSchema>;

function BalanceForm({ client, onDone }: { client: Client; onDone(): void }) {
  const t = useT();
  const updateClient = useUpdateClient(client.id);
  const flash = useFlash();
  const form = useForm<BalanceInput, unknown, BalanceOutput>({
    resolver: zodResolver(balanceUpdateSchema),
    reValidateMode: 'onChange',
    defaultValues: { balance: client.balance, balanceNote: '' },
  });
  const error = fieldMessageText(form.formState.errors.balance?.message);
  const noteError = fieldMessageText(form.formState.errors.balanceNote?.message);

  const submit = form.handleSubmit(async ({ balance, balanceNote }) => {
    try {
      await updateClient.mutateAsync({
        balance,
        version: client.version,
        ...(balanceNote ? { balanceNote } : {}),
      });
      flash.success(translate(messages.balanceUpdated.id), messages.balanceUpdated.seconds);
      onDone();
    } catch (failure) {
      const latest = conflictingClient(failure);
      if (latest) {
        form.reset({ balance: latest.balance });
        flash.failure(translate('clients.conflict'), messages.failureSeconds);
        return;
      }
      applyServerErrors(failure, form.setError, ['balance', 'balanceNote']);
      flash.failure(
        failureText(translate('clients.balance.failed'), failure),
        messages.failureSeconds,
      );
    }
  });

  return (
    <Form noValidate onSubmit={submit} aria-label={t('clients.balance.form')} className="mt-2">
      <Form.Label htmlFor="balance-input" className="visually-hidden">
        {t('clients.balance.new')}
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
          {t('clients.balance.update')}
        </Button>
        <Form.Control.Feedback type="invalid" id="balance-input-error">
          {error}
        </Form.Control.Feedback>
      </InputGroup>
      <Form.Group controlId="balance-note-input" className="mt-2">
        <Form.Label className="small mb-1">{t('clients.balance.reason')}</Form.Label>
        <Form.Control
          size="sm"
          autoComplete="off"
          isInvalid={Boolean(noteError)}
          aria-invalid={Boolean(noteError)}
          aria-describedby={noteError ? 'balance-note-input-error' : undefined}
          {...form.register('balanceNote')}
        />
        <Form.Control.Feedback type="invalid" id="balance-note-input-error">
          {noteError}
        </Form.Control.Feedback>
      </Form.Group>
    </Form>
  );
}

function ClientDeleteDialog({
  client,
  show,
  onCancel,
  onConfirm,
  busy,
}: {
  client: Client;
  show: boolean;
  onCancel(): void;
  onConfirm(): void;
  busy: boolean;
}) {
  const t = useT();
  const paise = paiseFromAmount(client.balance);
  const standing =
    paise > 0n
      ? 'clients.delete.owes'
      : paise < 0n
        ? 'clients.delete.credit'
        : 'clients.delete.nothing';
  return (
    <ConfirmDialog
      show={show}
      busy={busy}
      title={t('clients.delete.title')}
      confirmLabel={t('clients.delete')}
      onCancel={onCancel}
      onConfirm={onConfirm}
    >
      <T
        id={standing}
        values={{
          name: `${client.fname} ${client.lname}`,
          amount: formatInr(paise < 0n ? -paise : paise),
        }}
        components={{ 0: <strong /> }}
      />
    </ConfirmDialog>
  );
}

function ClientDetails({ client }: { client: Client }) {
  const t = useT();
  const location = useLocation();
  const [showBalanceForm, setShowBalanceForm] = useState(false);
  const paymentButton = useRef<HTMLButtonElement>(null);
  const chargeButton = useRef<HTMLButtonElement>(null);
  const [entryKind, setEntryKind] = useState<EntryFormKind | null>(
    (location.state as DetailsPageState | null)?.entryForm ?? null,
  );
  const [confirmingDelete, setConfirmingDelete] = useState(false);
  const [sharing, setSharing] = useState(false);
  const deleteClient = useDeleteClient(client.id);
  const queryClient = useQueryClient();
  const flash = useFlash();
  const navigate = useNavigate();
  const mayEdit = useMay('clients.edit');
  const mayDelete = useMay('clients.delete');
  const mayEditBalance = useMay('balance.edit');
  const mayRecord = useMay('entries.record');
  const mayShare = useMay('links.share');
  usePageTitle(`${client.fname} ${client.lname}`);

  async function remove() {
    try {
      await deleteClient.mutateAsync();
      setConfirmingDelete(false);
      const { id } = client;
      flash.success(translate(messages.clientDeleted.id), messages.clientDeleted.seconds, {
        label: translate('clients.undo'),
        run: () => {
          restoreDeletedClient(queryClient, id).then(
            () =>
              flash.success(translate(messages.clientRestored.id), messages.clientRestored.seconds),
            (error: unknown) =>
              flash.failure(
                failureText(translate('clients.restore.failed'), error),
                messages.failureSeconds,
              ),
          );
        },
      });
      navigate(lastListPlace());
    } catch (error) {
      setConfirmingDelete(false);
      flash.failure(
        failureText(translate('clients.delete.failed'), error),
        messages.failureSeconds,
      );
    }
  }

  return (
    <>
      <Row className="mb-2">
        <Col xs={6}>
          <Link to={lastListPlace()} className="btn btn-link ps-0">
            {t('shell.backToDashboard')}
          </Link>
        </Col>
        <Col xs={6} className="text-end">
          {mayEdit || mayDelete ? (
            <ButtonGroup>
              {mayEdit ? (
                <Link to={paths.editClient(client.id)} className="btn btn-secondary">
                  {t('clients.details.edit')}
                </Link>
              ) : null}
              {mayDelete ? (
                <Button variant="danger" onClick={() => setConfirmingDelete(true)}>
                  {t('clients.delete')}
                </Button>
              ) : null}
            </ButtonGroup>
          ) : null}
        </Col>
      </Row>
      <Card>
        <Card.Header as="h1" className="h3" tabIndex={-1}>
          {client.fname} {client.lname}
        </Card.Header>
        <Card.Body>
          <Row>
            <Col md={8} sm={6}>
              <h2 className="h5">
                {t('clients.details.id')}{' '}
                <span className="text-body-secondary font-monospace">{client.id}</span>
              </h2>
            </Col>
            <Col md={4} sm={6} className="text-md-end">
              <h2 className="h4">
                {t('clients.details.balance')} <Balance amount={client.balance} />{' '}
                {mayEditBalance ? (
                  <Button
                    variant="link"
                    size="sm"
                    className="p-0 align-baseline"
                    aria-label={t('clients.details.editBalance')}
                    aria-expanded={showBalanceForm}
                    onClick={() => setShowBalanceForm((shown) => !shown)}
                  >
                    <PencilIcon />
                  </Button>
                ) : null}
              </h2>
              <OverdueSince client={client} />
              {showBalanceForm && mayEditBalance ? (
                <BalanceForm
                  key={client.version}
                  client={client}
                  onDone={() => setShowBalanceForm(false)}
                />
              ) : null}
              <div className="d-flex flex-wrap gap-2 justify-content-md-end mt-2">
                {mayRecord ? (
                  <>
                    <Button
                      ref={paymentButton}
                      variant="outline-success"
                      size="sm"
                      aria-expanded={entryKind === 'payment'}
                      onClick={() => setEntryKind('payment')}
                    >
                      {t('clients.details.recordPayment')}
                    </Button>
                    <Button
                      ref={chargeButton}
                      variant="outline-danger"
                      size="sm"
                      aria-expanded={entryKind === 'charge'}
                      onClick={() => setEntryKind('charge')}
                    >
                      {t('clients.details.addCharge')}
                    </Button>
                  </>
                ) : null}
                {mayShare ? (
                  <Button variant="outline-primary" size="sm" onClick={() => setSharing(true)}>
                    {t('clients.details.share')}
                  </Button>
                ) : null}
                <RemindButton client={client} size="sm" />
              </div>
            </Col>
          </Row>
          {entryKind && mayRecord ? (
            <EntryForm
              key={entryKind}
              client={client}
              kind={entryKind}
              onDone={() => {
                // Back to the button that opened the form, not lost on the page's body.
                (entryKind === 'payment' ? paymentButton : chargeButton).current?.focus();
                setEntryKind(null);
              }}
            />
          ) : null}
          <hr />
          <ListGroup>
            <ListGroup.Item>{t('clients.details.email', { email: client.email })}</ListGroup.Item>
            <ListGroup.Item>
              <T id="clients.details.phone" components={{ 0: <ClientPhone client={client} /> }} />
            </ListGroup.Item>
            <ListGroup.Item data-testid="client-language">
              {/* Named in itself, as the language menus name it. */}
              <T
                id="clients.details.language"
                components={{
                  0: <span lang={client.language}>{LANGUAGE_NAMES[client.language]}</span>,
                }}
              />
            </ListGroup.Item>
            <ListGroup.Item>
              {t('clients.card.lastPayment', { date: dayOrNever(client.lastPaymentOn) })}
            </ListGroup.Item>
          </ListGroup>
        </Card.Body>
      </Card>
      <PromisePanel client={client} />
      <ClaimsPanel client={client} />
      <section aria-labelledby="history-heading" className="mt-4">
        <div className="d-flex flex-wrap justify-content-between align-items-baseline gap-2 mb-2">
          <h2 id="history-heading" className="h4 mb-0">
            {t('clients.details.history')}
          </h2>
          <Link to={paths.clientStatement(client.id)} className="btn btn-outline-secondary btn-sm">
            {t('clients.details.statement')}
          </Link>
        </div>
        <LedgerHistory clientId={client.id} />
      </section>
      <RemindersHistory client={client} />
      <Suspense fallback={null}>
        <ClientActivity clientId={client.id} />
      </Suspense>
      {sharing ? <ShareDialog client={client} onClose={() => setSharing(false)} /> : null}
      <ClientDeleteDialog
        client={client}
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
