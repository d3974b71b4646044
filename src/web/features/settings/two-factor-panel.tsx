import { useId, useRef } from 'react';
import Button from 'react-bootstrap/Button';
import { useFlash } from '../../components/flash-messages.tsx';
import { LoadFailed } from '../../components/loading.tsx';
import { ACCOUNT_MESSAGE_SECONDS } from '../../lib/account-messages.ts';
import { useDialogFor } from '../../lib/use-dialog-for.ts';
import { useTwoFactorStatus } from './two-factor-api.ts';
import { NewBackupCodesDialog, SetupDialog, TurnOffDialog } from './two-factor-dialogs.tsx';

type TwoFactorDialog = 'setup' | 'codes' | 'off';

function backupCodesLeftText(left: number): string {
  if (left === 0) return 'You have no backup codes left: make new ones.';
  if (left === 1) return 'You have 1 backup code left.';
  return `You have ${left} backup codes left.`;
}

/**
 * The operator's own two-factor sign-in (TOTP): turned on with an authenticator app, then
 * off again, and new backup codes, each with the current password.
 */
export function TwoFactorPanel({ email }: { email: string }) {
  const status = useTwoFactorStatus();
  const flash = useFlash();
  const headingId = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  // The buttons a dialog's outcome puts in place of the one that opened it.
  const turnOn = useRef<HTMLButtonElement>(null);
  const newCodes = useRef<HTMLButtonElement>(null);
  const dialog = useDialogFor<TwoFactorDialog>();
  const { target } = dialog;

  function turnedOn() {
    // "Turn on" went: the first of the buttons of the "on" state takes the focus.
    dialog.closeAndFocus(
      () => newCodes.current,
      () => heading.current,
    );
    flash.success(
      'Two-factor sign-in is on: signing in asks for a code from your app',
      ACCOUNT_MESSAGE_SECONDS,
    );
  }

  function turnedOff() {
    dialog.closeAndFocus(
      () => turnOn.current,
      () => heading.current,
    );
    flash.success('Two-factor sign-in is off', ACCOUNT_MESSAGE_SECONDS);
  }

  const dialogProps = {
    show: dialog.open,
    email,
    restoreFocus: dialog.restoreFocus,
    onCancel: dialog.close,
    onExited: dialog.exited,
  };
  return (
    <section aria-labelledby={headingId} className="mb-4">
      {/* Focused (to be read from, not a control) if a dialog's outcome left no button to. */}
      <h3 className="h6" id={headingId} ref={heading} tabIndex={-1}>
        Two-factor sign-in
      </h3>
      {/* A plain line, not a status region: the flash messages are the page's one status region. */}
      {status.isPending ? <p className="text-body-secondary">Loading…</p> : null}
      {status.isError ? (
        <LoadFailed
          what="your two-factor sign-in"
          error={status.error}
          onRetry={() => void status.refetch()}
        />
      ) : null}
      {status.data && !status.data.enabled ? (
        <>
          <p className="text-body-secondary">
            Off. With two-factor sign-in on, signing in asks for a code from an authenticator app on
            your phone after your password: someone who learns your password still cannot sign in.
          </p>
          <Button ref={turnOn} variant="primary" onClick={() => dialog.ask('setup')}>
            Turn on two-factor sign-in
          </Button>
        </>
      ) : null}
      {status.data?.enabled ? (
        <>
          <p className="text-body-secondary">
            On: signing in asks for a code from your authenticator app after your password.{' '}
            {backupCodesLeftText(status.data.backupCodesLeft)}
          </p>
          <div className="d-flex flex-wrap gap-2">
            <Button ref={newCodes} variant="outline-secondary" onClick={() => dialog.ask('codes')}>
              New backup codes
            </Button>
            <Button variant="outline-danger" onClick={() => dialog.ask('off')}>
              Turn off two-factor sign-in
            </Button>
          </div>
        </>
      ) : null}
      {target === 'setup' ? <SetupDialog {...dialogProps} onTurnedOn={turnedOn} /> : null}
      {target === 'codes' ? <NewBackupCodesDialog {...dialogProps} /> : null}
      {target === 'off' ? <TurnOffDialog {...dialogProps} onTurnedOff={turnedOff} /> : null}
    </section>
  );
}
