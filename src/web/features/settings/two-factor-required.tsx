import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import { useNavigate } from 'react-router';
import { paths } from '../../../shared/paths.ts';
import { useFlash } from '../../components/flash-messages.tsx';
import { usePageTitle } from '../../components/page-title.ts';
import { translate, useT } from '../../i18n/translate.tsx';
import { ACCOUNT_MESSAGE_SECONDS } from '../../lib/account-messages.ts';
import { session, useSignOut } from '../../lib/session.ts';
import { FAILURE_SECONDS, failureText, loggedOut } from '../../lib/shell-messages.ts';
import { useDialogFor } from '../../lib/use-dialog-for.ts';
import { SetupDialog } from './two-factor-dialogs.tsx';

/**
 * All that an operator is offered while the administrator requires two-factor sign-in and
 * theirs is off (every other call of theirs is refused): turning it on, or signing out.
 */
export function TwoFactorRequired({ email }: { email: string }) {
  const t = useT();
  usePageTitle(t('settings.two-factor.turnOn'));
  const signOut = useSignOut();
  const flash = useFlash();
  const navigate = useNavigate();
  const dialog = useDialogFor<'setup'>();

  async function turnedOn() {
    dialog.close();
    // Read again, the session no longer holds them to the setup: the guards let them in.
    await session.reload();
    flash.success(translate('settings.two-factor.turnedOn'), ACCOUNT_MESSAGE_SECONDS);
    navigate(paths.dashboard);
  }

  async function logout() {
    try {
      await signOut.signOut();
      flash.success(translate(loggedOut.id), loggedOut.seconds);
      navigate(paths.login);
    } catch (error) {
      flash.failure(failureText(translate('auth.logoutFailed'), error), FAILURE_SECONDS);
    }
  }

  return (
    <Card className="mx-auto auth-card">
      <Card.Body>
        <h1 className="h3 text-center mb-4">{t('settings.two-factor.turnOn')}</h1>
        <p>{t('settings.required.why')}</p>
        <p className="text-body-secondary">{t('settings.required.what')}</p>
        <div className="d-grid gap-2">
          <Button variant="primary" onClick={() => dialog.ask('setup')}>
            {t('settings.two-factor.turnOn')}
          </Button>
          <Button
            variant="outline-secondary"
            disabled={signOut.isPending}
            onClick={() => void logout()}
          >
            {t('settings.signOut')}
          </Button>
        </div>
      </Card.Body>
      {dialog.target ? (
        <SetupDialog
          show={dialog.open}
          email={email}
          onCancel={dialog.close}
          onExited={dialog.exited}
          onTurnedOn={() => void turnedOn()}
        />
      ) : null}
    </Card>
  );
}
