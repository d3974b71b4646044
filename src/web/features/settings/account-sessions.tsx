import { zodResolver } from '@hookform/resolvers/zod';
import { useId, useState } from 'react';
import Alert from 'react-bootstrap/Alert';
import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import Modal from 'react-bootstrap/Modal';
import Table from 'react-bootstrap/Table';
import { useForm } from 'react-hook-form';
import { useNavigate } from 'react-router';
import * as z from 'zod/mini';
import { type AccountSession, currentPasswordSchema } from '../../../shared/account-schema.ts';
import { paths } from '../../../shared/paths.ts';
import { useFlash } from '../../components/flash-messages.tsx';
import { FormField, UsernameHint } from '../../components/form-field.tsx';
import { LoadFailed } from '../../components/loading.tsx';
import { ACCOUNT_MESSAGE_SECONDS } from '../../lib/account-messages.ts';
import { ApiError } from '../../lib/api-client.ts';
import { applyServerErrors } from '../../lib/form-errors.ts';
import { useDialogFor } from '../../lib/use-dialog-for.ts';
import { useAccountSessions, useEndAccountSessions } from './account-api.ts';

/** Which sessions the operator is about to end: one of the list, or every one but this. */
type SessionsToEnd = { kind: 'one'; session: AccountSession } | { kind: 'others' };

const timeFormat = new Intl.DateTimeFormat('en-IN', { dateStyle: 'medium', timeStyle: 'short' });

function When({ at }: { at: string }) {
  return <time dateTime={at}>{timeFormat.format(new Date(at))}</time>;
}

/** What the operator reads once sessions have ended (and this browser is still signed in). */
function sessionsEndedText(target: SessionsToEnd, revoked: number): string {
  if (target.kind === 'one') {
    return revoked === 0 ? 'That session had already ended' : 'The session ended';
  }
  if (revoked === 0) return 'No other session was active';
  return `${revoked === 1 ? '1 other session' : `${revoked} other sessions`} ended`;
}

const SIGNED_OUT_HERE_TEXT = 'You are signed out: the session of this browser ended';

const endSessionsFormSchema = z.object({ currentPassword: currentPasswordSchema });
type EndSessionsFormValues = z.infer<typeof endSessionsFormSchema>;

/**
 * Asks for the current password before sessions end (ASVS 7.5.2): a screen left signed in
 * is not enough to throw its owner out of their other devices, or to keep them out.
 */
function EndSessionsDialog({
  target,
  show,
  email,
  onCancel,
  onEnded,
  onExited,
}: {
  target: SessionsToEnd;
  show: boolean;
  email: string;
  onCancel(): void;
  onEnded(revoked: number, signedOut: boolean): void;
  /** Once it has faded out: the target can go then, and the typed password with it. */
  onExited(): void;
}) {
  const titleId = useId();
  const endSessions = useEndAccountSessions();
  // A refusal that is not about the password (too many attempts, no network).
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<EndSessionsFormValues>({
    resolver: zodResolver(endSessionsFormSchema),
    defaultValues: { currentPassword: '' },
  });
  const { errors, isSubmitting } = form.formState;
  const one = target.kind === 'one' ? target.session : null;

  const onSubmit = form.handleSubmit(async ({ currentPassword }) => {
    setFailure(null);
    try {
      const { revoked, signedOut } = await endSessions.mutateAsync(
        one ? { currentPassword, sessionIds: [one.id] } : { currentPassword, allOthers: true },
      );
      onEnded(revoked, signedOut);
    } catch (error) {
      const message = applyServerErrors(error, form.setError, ['currentPassword']);
      if (!(error instanceof ApiError && error.fieldErrors.currentPassword)) setFailure(message);
    }
  });

  return (
    // Open until the answer is in: its outcome, or its failure, is shown here.
    <Modal
      show={show}
      onHide={isSubmitting ? () => {} : onCancel}
      onExited={onExited}
      backdrop={isSubmitting ? 'static' : true}
      keyboard={!isSubmitting}
      centered
      aria-labelledby={titleId}
    >
      <Form noValidate onSubmit={onSubmit} aria-labelledby={titleId}>
        <Modal.Header closeButton={!isSubmitting}>
          <Modal.Title id={titleId}>
            {one ? 'End this session?' : 'End all other sessions?'}
          </Modal.Title>
        </Modal.Header>
        <Modal.Body>
          {one?.current ? (
            <p>
              This is the session of this browser: you are signed out here and must sign in again.
            </p>
          ) : null}
          {one && !one.current ? (
            <p>
              The session of {one.device}
              {one.ipAddress ? ` at ${one.ipAddress}` : ''}, signed in <When at={one.createdAt} />,
              ends: that browser must sign in again, and its open pages stop updating at once.
            </p>
          ) : null}
          {one ? null : (
            <p>
              Every session of your account but this one ends, on every device: they must sign in
              again, and their open pages stop updating at once. This browser stays signed in.
            </p>
          )}
          <UsernameHint email={email} />
          <FormField
            id="end-sessions-password"
            label="Current password"
            type="password"
            autoComplete="current-password"
            registration={form.register('currentPassword')}
            error={errors.currentPassword?.message}
          />
          {failure ? (
            <Alert variant="danger" className="mb-0">
              {failure}
            </Alert>
          ) : null}
        </Modal.Body>
        <Modal.Footer>
          <Button variant="secondary" onClick={onCancel} disabled={isSubmitting}>
            Cancel
          </Button>
          <Button type="submit" variant="danger" disabled={isSubmitting}>
            {one ? 'End session' : 'End all other sessions'}
          </Button>
        </Modal.Footer>
      </Form>
    </Modal>
  );
}

/**
 * Every session of the operator's account that still signs in: where, since when, last
 * used; any of them, or all but this one, ended with the current password.
 */
export function SignedInSessions({ email }: { email: string }) {
  const sessions = useAccountSessions();
  const flash = useFlash();
  const navigate = useNavigate();
  const headingId = useId();
  const dialog = useDialogFor<SessionsToEnd>();
  const { target } = dialog;
  const others = sessions.data?.items.filter((session) => !session.current).length ?? 0;

  function ended(to: SessionsToEnd, revoked: number, signedOut: boolean) {
    dialog.close();
    if (signedOut) {
      flash.success(SIGNED_OUT_HERE_TEXT, ACCOUNT_MESSAGE_SECONDS);
      navigate(paths.login);
      return;
    }
    flash.success(sessionsEndedText(to, revoked), ACCOUNT_MESSAGE_SECONDS);
  }

  return (
    <section aria-labelledby={headingId} className="mb-4">
      <h3 className="h6" id={headingId}>
        Signed-in sessions
      </h3>
      <p className="text-body-secondary">
        Where your account is signed in now. End any session you do not recognise; you are asked for
        your password first. &ldquo;Last active&rdquo; is updated every few minutes of use.
      </p>
      {/* A plain line, not a status region: the flash messages are the page's one status region. */}
      {sessions.isPending ? <p className="text-body-secondary">Loading your sessions…</p> : null}
      {sessions.isError ? (
        <LoadFailed
          what="your sessions"
          error={sessions.error}
          onRetry={() => void sessions.refetch()}
        />
      ) : null}
      {sessions.data ? (
        <Table responsive size="sm" className="table-stacked" aria-labelledby={headingId}>
          <thead>
            <tr>
              <th scope="col">Device</th>
              <th scope="col">Address</th>
              <th scope="col">Signed in</th>
              <th scope="col">Last active</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {sessions.data.items.map((session) => (
              <tr key={session.id}>
                <td>
                  {session.device}
                  {session.current ? (
                    <span className="badge text-bg-success ms-2">This device</span>
                  ) : null}
                </td>
                <td data-label="Address">{session.ipAddress ?? 'Unknown'}</td>
                <td data-label="Signed in">
                  <When at={session.createdAt} />
                </td>
                <td data-label="Last active">
                  <When at={session.lastActiveAt} />
                </td>
                <td className="text-end">
                  <Button
                    size="sm"
                    variant="outline-danger"
                    onClick={() => dialog.ask({ kind: 'one', session })}
                    aria-label={
                      session.current
                        ? 'End the session of this device'
                        : `End the session of ${session.device}, signed in ${timeFormat.format(new Date(session.createdAt))}`
                    }
                  >
                    End
                  </Button>
                </td>
              </tr>
            ))}
          </tbody>
        </Table>
      ) : null}
      {sessions.data ? (
        <Button
          variant="outline-danger"
          disabled={others === 0}
          onClick={() => dialog.ask({ kind: 'others' })}
        >
          End all other sessions
        </Button>
      ) : null}
      {target ? (
        <EndSessionsDialog
          target={target}
          show={dialog.open}
          email={email}
          onCancel={dialog.close}
          onEnded={(revoked, signedOut) => ended(target, revoked, signedOut)}
          onExited={dialog.exited}
        />
      ) : null}
    </section>
  );
}
