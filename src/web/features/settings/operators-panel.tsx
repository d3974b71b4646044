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
import { translate, useT } from '../../i18n/translate.tsx';
import { ACCOUNT_MESSAGE_SECONDS } from '../../lib/account-messages.ts';
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
      ? translate('settings.sessions.noneOther')
      : translate('settings.operators.everyoneSignedOut', { count: revoked });
  }
  const email = target.email;
  return revoked === 0
    ? translate('settings.operators.noSession', { email })
    : translate('settings.operators.signedOut', { email, count: revoked });
}

/** What an administrator reads once an operator is deactivated. */
function deactivatedText(email: string, revoked: number): string {
  return revoked === 0
    ? translate('settings.operators.deactivated', { email })
    : translate('settings.operators.deactivatedSignedOut', { email, count: revoked });
}

/** The labels of a row's buttons that take the place of one another. */
const reactivateLabel = (email: string) =>
  translate('settings.operators.reactivateLabel', { email });
const deactivateLabel = (email: string) =>
  translate('settings.operators.deactivateLabel', { email });

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
  const t = useT();
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
      flash.failure(
        failureText(translate('settings.operators.signOutFailed'), error),
        messages.failureSeconds,
      );
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
      flash.failure(
        failureText(translate('settings.operators.resetLinkFailed'), error),
        messages.failureSeconds,
      );
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
      flash.failure(
        failureText(translate('settings.operators.deactivateFailed', { email }), error),
        messages.failureSeconds,
      );
    }
  }

  /** A refusal (a wrong password, too many, no such operator) is thrown: the dialog says it. */
  async function turnTwoFactorOff(input: TwoFactorPasswordInput) {
    if (!turningOffTwoFactor.target) return;
    const { id, email } = turningOffTwoFactor.target;
    await disableTwoFactor.mutateAsync({ operatorId: id, ...input });
    // Its button went from the row, and nothing took its place.
    turningOffTwoFactor.closeAndFocus(focusHeading);
    flash.success(translate('settings.operators.twoFactorOff', { email }), ACCOUNT_MESSAGE_SECONDS);
  }

  async function reactivateOperator(operator: OperatorListItem) {
    const from = document.activeElement;
    try {
      await reactivate.mutateAsync(operator.id);
      focusInPlaceOf(from, deactivateLabel(operator.email));
      flash.success(
        translate('settings.operators.reactivated', { email: operator.email }),
        messages.settingsSaved.seconds,
      );
    } catch (error) {
      focusInPlaceOf(from, reactivateLabel(operator.email));
      flash.failure(
        failureText(
          translate('settings.operators.reactivateFailed', { email: operator.email }),
          error,
        ),
        messages.failureSeconds,
      );
    }
  }

  async function change(operator: OperatorSummary, role: OperatorSummary['role']) {
    try {
      await changeRole.mutateAsync({ id: operator.id, role });
      flash.success(
        translate(
          role === 'admin' ? 'settings.operators.madeAdmin' : 'settings.operators.noLongerAdmin',
          { email: operator.email },
        ),
        messages.settingsSaved.seconds,
      );
    } catch (error) {
      flash.failure(
        failureText(translate('settings.operators.roleFailed'), error),
        messages.failureSeconds,
      );
    }
  }

  return (
    <Card className="mt-4" ref={card}>
      {/* Focused (to be read from, not a control) if a dialog's outcome left no button to. */}
      <Card.Header as="h2" className="h5" ref={heading} tabIndex={-1}>
        {t('settings.operators.heading')}
      </Card.Header>
      <Card.Body>
        <p className="text-body-secondary">{t('settings.operators.intro')}</p>
        {operators.isPending ? <Loading /> : null}
        {operators.isError ? (
          <LoadFailed
            what={t('settings.operators.load')}
            error={operators.error}
            onRetry={() => operators.refetch()}
          />
        ) : null}
        {operators.data ? (
          <Table
            responsive
            aria-label={t('settings.operators.heading')}
            className="mb-0 table-stacked"
          >
            <thead>
              <tr>
                <th scope="col">{t('settings.operators.email')}</th>
                <th scope="col">{t('settings.operators.role')}</th>
                <th scope="col">
                  <span className="visually-hidden">{t('settings.actions')}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {operators.data.items.map((operator) => (
                <tr key={operator.id}>
                  <td>
                    {operator.email}
                    {operator.id === currentOperatorId ? ` ${t('settings.operators.you')}` : ''}
                    {operator.twoFactorEnabled ? (
                      <Badge bg="success" className="ms-2">
                        {t('settings.operators.twoFactorBadge')}
                      </Badge>
                    ) : null}
                    {operator.deactivatedAt === null ? null : (
                      <Badge bg="secondary" className="ms-2">
                        {t('settings.operators.deactivatedBadge')}
                      </Badge>
                    )}
                  </td>
                  <td data-label={t('settings.operators.role')}>
                    {t(
                      operator.role === 'admin'
                        ? 'settings.operators.administrator'
                        : 'settings.operators.operator',
                    )}
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
                          {t('settings.operators.reactivate')}
                        </Button>
                      )}
                      {operator.id === currentOperatorId ||
                      operator.deactivatedAt !== null ? null : (
                        <>
                          <Button
                            size="sm"
                            variant="outline-secondary"
                            onClick={() => askForResetLink(operator)}
                            aria-label={t('settings.operators.resetLinkFor', {
                              email: operator.email,
                            })}
                          >
                            {t('settings.operators.resetLink')}
                          </Button>
                          <Button
                            size="sm"
                            variant="outline-danger"
                            onClick={() => ending.ask(operator)}
                            aria-label={t('settings.operators.signOutLabel', {
                              email: operator.email,
                            })}
                          >
                            {t('settings.signOut')}
                          </Button>
                          <Button
                            size="sm"
                            variant="outline-danger"
                            onClick={() => deactivating.ask(operator)}
                            aria-label={deactivateLabel(operator.email)}
                          >
                            {t('settings.operators.deactivate')}
                          </Button>
                        </>
                      )}
                      {/* One's own is turned off in the account section, with the password. */}
                      {operator.twoFactorEnabled && operator.id !== currentOperatorId ? (
                        <Button
                          size="sm"
                          variant="outline-danger"
                          onClick={() => turningOffTwoFactor.ask(operator)}
                          aria-label={t('settings.operators.twoFactorOffLabel', {
                            email: operator.email,
                          })}
                        >
                          {t('settings.operators.twoFactorOffButton')}
                        </Button>
                      ) : null}
                      {operator.role === 'admin' ? (
                        <Button
                          size="sm"
                          variant="outline-secondary"
                          disabled={changeRole.isPending}
                          onClick={() => void change(operator, 'operator')}
                          aria-label={t('settings.operators.removeAdminLabel', {
                            email: operator.email,
                          })}
                        >
                          {t('settings.operators.removeAdmin')}
                        </Button>
                      ) : (
                        <Button
                          size="sm"
                          variant="outline-secondary"
                          disabled={changeRole.isPending}
                          onClick={() => void change(operator, 'admin')}
                          aria-label={t('settings.operators.makeAdminLabel', {
                            email: operator.email,
                          })}
                        >
                          {t('settings.operators.makeAdmin')}
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
            {t('settings.operators.signOutEveryone')}
          </Button>
          <p className="form-text mb-0">{t('settings.operators.signOutEveryoneHelp')}</p>
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
