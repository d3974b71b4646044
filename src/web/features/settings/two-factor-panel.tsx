import { useId, useRef } from 'react';
import Button from 'react-bootstrap/Button';
import { useFlash } from '../../components/flash-messages.tsx';
import { LoadFailed } from '../../components/loading.tsx';
import { translate, useT } from '../../i18n/translate.tsx';
import { ACCOUNT_MESSAGE_SECONDS } from '../../lib/account-messages.ts';
import { useDialogFor } from '../../lib/use-dialog-for.ts';
import { useTwoFactorStatus } from './two-factor-api.ts';
import { NewBackupCodesDialog, SetupDialog, TurnOffDialog } from './two-factor-dialogs.tsx';

type TwoFactorDialog = 'setup' | 'codes' | 'off';

/**
 * The operator's own two-factor sign-in (TOTP): turned on with an authenticator app, then
 * off again, and new backup codes, each with the current password.
 */
export function TwoFactorPanel({ email }: { email: string }) {
  const t = useT();
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
    flash.success(translate('settings.two-factor.turnedOn'), ACCOUNT_MESSAGE_SECONDS);
  }

  function turnedOff() {
    dialog.closeAndFocus(
      () => turnOn.current,
      () => heading.current,
    );
    flash.success(translate('settings.two-factor.turnedOff'), ACCOUNT_MESSAGE_SECONDS);
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
        {t('settings.two-factor.heading')}
      </h3>
      {/* A plain line, not a status region: the flash messages are the page's one status region. */}
      {status.isPending ? <p className="text-body-secondary">{t('settings.loading')}</p> : null}
      {status.isError ? (
        <LoadFailed
          what={t('settings.two-factor.load')}
          error={status.error}
          onRetry={() => void status.refetch()}
        />
      ) : null}
      {status.data && !status.data.enabled ? (
        <>
          <p className="text-body-secondary">{t('settings.two-factor.off')}</p>
          <Button ref={turnOn} variant="primary" onClick={() => dialog.ask('setup')}>
            {t('settings.two-factor.turnOn')}
          </Button>
        </>
      ) : null}
      {status.data?.enabled ? (
        <>
          <p className="text-body-secondary">
            {t('settings.two-factor.on')}{' '}
            {t('settings.two-factor.codesLeft', { count: status.data.backupCodesLeft })}
          </p>
          <div className="d-flex flex-wrap gap-2">
            <Button ref={newCodes} variant="outline-secondary" onClick={() => dialog.ask('codes')}>
              {t('settings.two-factor.newCodes')}
            </Button>
            <Button variant="outline-danger" onClick={() => dialog.ask('off')}>
              {t('settings.two-factor.turnOff')}
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
