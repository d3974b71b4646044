import { useRef, useState } from 'react';
import Badge from 'react-bootstrap/Badge';
import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Table from 'react-bootstrap/Table';
import type { OperatorListItem } from '../../../shared/operator-list-schema.ts';
import type { OperatorSummary } from '../../../shared/operator-schema.ts';
import type { ResetLink } from '../../../shared/password-reset-schema.ts';
import type { TwoFactorPasswordInput } from '../../../shared/two-factor-schema.ts';
import { useFlash } from '../../components/flash-messages.tsx';
import { LoadFailed, Loading } from '../../components/loading.tsx';
import { ACCOUNT_MESSAGE_SECONDS, sessionsText } from '../../lib/account-messages.ts';
import { failureText, messages } from '../../lib/messages.ts';
import { focusSoon, useDialogFor } from '../../lib/use-dialog-for.ts';
import {
  DeactivateDialog,
  EndSessionsDialog,
  ResetLinkDialog,
  type SessionsTarget,
  TwoFactorOffDialog,
} from './operator-dialogs.tsx';
import {
  useChangeRole,
  useDeactivateOperator,
  useDisableOperatorTwoFactor,
  useEndSessions,
  useIssueResetLink,
  useOperators,
  useReactivateOperator,
} from './operators-api.ts';

/** What an administrator reads once sessions have ended. */
function sessionsEndedText(target: SessionsTarget, revoked: number): string {
  if (target === 'everyone') {
    return revoked === 0
      ? 'No other session was active'
      : `Every operator is signed out: ${sessionsText(revoked)} ended`;
  }
  return revoked === 0
    ? `${target.email} had no active session`
    : `${target.email} is signed out: ${sessionsText(revoked)} ended`;
}

/** What an administrator reads once an operator is deactivated. */
function deactivatedText(email: string, revoked: number): string {
  return revoked === 0
    ? `${email} is deactivated`
    : `${email} is deactivated and signed out: ${sessionsText(revoked)} ended`;
}

/** The labels of a row's buttons that take the place of one another. */
const reactivateLabel = (email: string) => `Reactivate ${email}`;
const deactivateLabel = (email: string) => `Deactivate ${email}`;

/** The button so labelled in `container`, once it shows it. */
function buttonLabelled(container: HTMLElement | null, label: string) {
  return [...(container?.querySelectorAll('button') ?? [])].find(
    (button) => button.getAttribute('aria-label') === label,
  );
}

/**
 * The administrator's list of operators: the administrator role given or taken, sessions
 * ended (one operator's, or everyone's), reset links for forgotten passwords, two-factor
 * sign-in turned off for a lost phone (with the administrator's password), and accounts
 * deactivated (someone who left) or reactivated.
 */
export function OperatorsPanel({
  currentOperatorId,
  currentEmail,
}: {
  currentOperatorId: string;
  /** The administrator's own e-mail address, for password managers. */
  currentEmail: string;
}) {
  const operators = useOperators(true);
  const changeRole = useChangeRole();
  const endSessions = useEndSessions();
  const issueResetLink = useIssueResetLink();
  const deactivate = useDeactivateOperator();
  const reactivate = useReactivateOperator();
  const flash = useFlash();
  const ending = useDialogFor<SessionsTarget>();
  const resetFor = useDialogFor<OperatorSummary>();
  const [resetLink, setResetLink] = useState<ResetLink | null>(null);
  const deactivating = useDialogFor<OperatorSummary>();
  const disableTwoFactor = useDisableOperatorTwoFactor();
  const turningOffTwoFactor = useDialogFor<OperatorSummary>();
  const card = useRef<HTMLDivElement>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const focusHeading = () => heading.current;

  /**
   * The focus, lost with the button that had it (its row now shows another in its place), goes
   * to the one that took its place, else to the heading. Moved on meanwhile, it stays.
   */
  function focusInPlaceOf(from: Element | null, label: string) {
    const active = document.activeElement;
    if (active !== from && active !== null && active !== document.body) return;
    focusSoon(() => buttonLabelled(card.current, label), focusHeading);
  }

  function askForResetLink(operator: OperatorSummary) {
    setResetLink(null);
    resetFor.ask(operator);
  }

  async function confirmEnding() {
    const target = ending.target;
    if (target === null) return;
    try {
      const { revoked } = await endSessions.mutateAsync(target === 'everyone' ? null : target.id);
      flash.success(sessionsEndedText(target, revoked), ACCOUNT_MESSAGE_SECONDS);
    } catch (error) {
      flash.failure(failureText('No one was signed out', error), messages.failureSeconds);
    } finally {
      ending.close();
    }
  }

  async function issueLink() {
    if (!resetFor.target) return;
    try {
      setResetLink(await issueResetLink.mutateAsync(resetFor.target.id));
    } catch (error) {
      resetFor.close();
      flash.failure(failureText('No reset link was made', error), messages.failureSeconds);
    }
  }

  async function confirmDeactivation() {
    if (!deactivating.target) return;
    const { id, email } = deactivating.target;
    try {
      const { revoked } = await deactivate.mutateAsync(id);
      // "Deactivate" went from the row: its "Reactivate" takes the focus.
      deactivating.closeAndFocus(
        () => buttonLabelled(card.current, reactivateLabel(email)),
        focusHeading,
      );
      flash.success(deactivatedText(email, revoked), ACCOUNT_MESSAGE_SECONDS);
    } catch (error) {
      deactivating.close();
      flash.failure(failureText(`${email} was not deactivated`, error), messages.failureSeconds);
    }
  }

  /** A refusal (a wrong password, too many, no such operator) is thrown: the dialog says it. */
  async function turnTwoFactorOff(input: TwoFactorPasswordInput) {
    if (!turningOffTwoFactor.target) return;
    const { id, email } = turningOffTwoFactor.target;
    await disableTwoFactor.mutateAsync({ operatorId: id, ...input });
    // Its button went from the row, and nothing took its place.
    turningOffTwoFactor.closeAndFocus(focusHeading);
    flash.success(`Two-factor sign-in is off for ${email}`, ACCOUNT_MESSAGE_SECONDS);
  }

  async function reactivateOperator(operator: OperatorListItem) {
    const from = document.activeElement;
    try {
      await reactivate.mutateAsync(operator.id);
      focusInPlaceOf(from, deactivateLabel(operator.email));
      flash.success(
        `${operator.email} is reactivated: they can sign in again`,
        messages.settingsSaved.seconds,
      );
    } catch (error) {
      focusInPlaceOf(from, reactivateLabel(operator.email));
      flash.failure(
        failureText(`${operator.email} was not reactivated`, error),
        messages.failureSeconds,
      );
    }
  }

  async function change(operator: OperatorSummary, role: OperatorSummary['role']) {
    try {
      await changeRole.mutateAsync({ id: operator.id, role });
      flash.success(
        role === 'admin'
          ? `${operator.email} is now an administrator`
          : `${operator.email} is no longer an administrator`,
        messages.settingsSaved.seconds,
      );
    } catch (error) {
      flash.failure(failureText('The role was not changed', error), messages.failureSeconds);
    }
  }

  return (
    <Card className="mt-4" ref={card}>
      {/* Focused (to be read from, not a control) if a dialog's outcome left no button to. */}
      <Card.Header as="h2" className="h5" ref={heading} tabIndex={-1}>
        Operators
      </Card.Header>
      <Card.Body>
        <p className="text-body-secondary">
          Administrators change the panel&apos;s settings and who else is an administrator, sign
          operators out, give an operator who forgot their password a link to choose a new one, turn
          off two-factor sign-in for one who lost their phone and backup codes, and deactivate the
          account of someone who left.
        </p>
        {operators.isPending ? <Loading /> : null}
        {operators.isError ? (
          <LoadFailed
            what="the operators"
            error={operators.error}
            onRetry={() => operators.refetch()}
          />
        ) : null}
        {operators.data ? (
          <Table responsive aria-label="Operators" className="mb-0 table-stacked">
            <thead>
              <tr>
                <th scope="col">Email</th>
                <th scope="col">Role</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {operators.data.items.map((operator) => (
                <tr key={operator.id}>
                  <td>
                    {operator.email}
                    {operator.id === currentOperatorId ? ' (you)' : ''}
                    {operator.twoFactorEnabled ? (
                      <Badge bg="success" className="ms-2">
                        Two-factor
                      </Badge>
                    ) : null}
                    {operator.deactivatedAt === null ? null : (
                      <Badge bg="secondary" className="ms-2">
                        Deactivated
                      </Badge>
                    )}
                  </td>
                  <td data-label="Role">
                    {operator.role === 'admin' ? 'Administrator' : 'Operator'}
                  </td>
                  <td className="text-end">
                    <div className="d-flex flex-wrap gap-2 justify-content-end">
                      {operator.deactivatedAt === null ? null : (
                        // No session to end and no link to give: only the way back.
                        <Button
                          size="sm"
                          variant="outline-secondary"
                          disabled={reactivate.isPending}
                          onClick={() => void reactivateOperator(operator)}
                          aria-label={reactivateLabel(operator.email)}
                        >
                          Reactivate
                        </Button>
                      )}
                      {operator.id === currentOperatorId ||
                      operator.deactivatedAt !== null ? null : (
                        <>
                          <Button
                            size="sm"
                            variant="outline-secondary"
                            onClick={() => askForResetLink(operator)}
                            aria-label={`Password reset link for ${operator.email}`}
                          >
                            Reset link
                          </Button>
                          <Button
                            size="sm"
                            variant="outline-danger"
                            onClick={() => ending.ask(operator)}
                            aria-label={`Sign out ${operator.email}`}
                          >
                            Sign out
                          </Button>
                          <Button
                            size="sm"
                            variant="outline-danger"
                            onClick={() => deactivating.ask(operator)}
                            aria-label={deactivateLabel(operator.email)}
                          >
                            Deactivate
                          </Button>
                        </>
                      )}
                      {/* One's own is turned off in the account section, with the password. */}
                      {operator.twoFactorEnabled && operator.id !== currentOperatorId ? (
                        <Button
                          size="sm"
                          variant="outline-danger"
                          onClick={() => turningOffTwoFactor.ask(operator)}
                          aria-label={`Turn off two-factor sign-in for ${operator.email}`}
                        >
                          Turn off two-factor
                        </Button>
                      ) : null}
                      {operator.role === 'admin' ? (
                        <Button
                          size="sm"
                          variant="outline-secondary"
                          disabled={changeRole.isPending}
                          onClick={() => void change(operator, 'operator')}
                          aria-label={`Remove administrator role from ${operator.email}`}
                        >
                          Remove administrator
                        </Button>
                      ) : (
                        <Button
                          size="sm"
                          variant="outline-secondary"
                          disabled={changeRole.isPending}
                          onClick={() => void change(operator, 'admin')}
                          aria-label={`Make ${operator.email} an administrator`}
                        >
                          Make administrator
                        </Button>
                      )}
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </Table>
        ) : null}
        <div className="mt-3">
          <Button variant="outline-danger" onClick={() => ending.ask('everyone')}>
            Sign out every operator
          </Button>
          <p className="form-text mb-0">
            Ends every session but this one, on every device, for instance after a device was lost
            or a password was shared.
          </p>
        </div>
      </Card.Body>
      <EndSessionsDialog
        target={ending.target}
        show={ending.open}
        busy={endSessions.isPending}
        onCancel={ending.close}
        onConfirm={() => void confirmEnding()}
        onExited={ending.exited}
      />
      <DeactivateDialog
        operator={deactivating.target}
        show={deactivating.open}
        busy={deactivate.isPending}
        onCancel={deactivating.close}
        onConfirm={() => void confirmDeactivation()}
        onExited={deactivating.exited}
        restoreFocus={deactivating.restoreFocus}
      />
      <TwoFactorOffDialog
        operator={turningOffTwoFactor.target}
        email={currentEmail}
        show={turningOffTwoFactor.open}
        busy={disableTwoFactor.isPending}
        onCancel={turningOffTwoFactor.close}
        onSubmit={turnTwoFactorOff}
        onExited={turningOffTwoFactor.exited}
        restoreFocus={turningOffTwoFactor.restoreFocus}
      />
      <ResetLinkDialog
        operator={resetFor.target}
        show={resetFor.open}
        link={resetLink}
        busy={issueResetLink.isPending}
        onIssue={() => void issueLink()}
        onClose={resetFor.close}
        onExited={() => {
          resetFor.exited();
          // Shown once: closing the dialog forgets the link.
          setResetLink(null);
        }}
      />
    </Card>
  );
}
