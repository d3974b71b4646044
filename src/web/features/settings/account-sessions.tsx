import { useId, useRef } from 'react';
import Button from 'react-bootstrap/Button';
import Table from 'react-bootstrap/Table';
import { useNavigate } from 'react-router';
import type { AccountSession } from '../../../shared/account-schema.ts';
import { paths } from '../../../shared/paths.ts';
import { useFlash } from '../../components/flash-messages.tsx';
import { LoadFailed } from '../../components/loading.tsx';
import { T, translate, useT } from '../../i18n/translate.tsx';
import { ACCOUNT_MESSAGE_SECONDS } from '../../lib/account-messages.ts';
import { formatTime } from '../../lib/dates.ts';
import { useDialogFor } from '../../lib/use-dialog-for.ts';
import { useAccountSessions, useEndAccountSessions } from './account-api.ts';
import { GuardedModal, PasswordStep } from './password-step.tsx';

/** Which sessions the operator is about to end: one of the list, or every one but this. */
type SessionsToEnd = { kind: 'one'; session: AccountSession } | { kind: 'others' };

function When({ at }: { at: string }) {
  return <time dateTime={at}>{formatTime(at)}</time>;
}

/**
 * The server's few words for a device (src/server/auth/user-agent.ts: "Chrome on Linux", "A
 * browser on Android", "Unknown device") in the chosen language; the browser's and the system's
 * names, and a tool's own name ("curl/8.5.0"), as they are.
 */
export function deviceText(device: string): string {
  // i18n-exempt: the server's English words, read to be said in the chosen language.
  if (device === 'Unknown device') return translate('settings.sessions.unknownDevice');
  const anyBrowser = /^A browser on (.+)$/.exec(device);
  if (anyBrowser) return translate('settings.sessions.anyBrowserOn', { system: anyBrowser[1] });
  const both = /^(.+) on (.+)$/.exec(device);
  if (both) return translate('settings.sessions.browserOn', { browser: both[1], system: both[2] });
  return device;
}

/** What the operator reads once sessions have ended (and this browser is still signed in). */
function sessionsEndedText(target: SessionsToEnd, revoked: number): string {
  if (target.kind === 'one') {
    return translate(revoked === 0 ? 'settings.sessions.alreadyEnded' : 'settings.sessions.ended');
  }
  if (revoked === 0) return translate('settings.sessions.noneOther');
  return translate('settings.sessions.othersEnded', { count: revoked });
}

/** One session of the list, said in the dialog that ends it. */
function SessionEnds({ session }: { session: AccountSession }) {
  const when = { 0: <time dateTime={session.createdAt} /> };
  const at = formatTime(session.createdAt);
  return session.ipAddress ? (
    <T
      id="settings.sessions.oneEndsAt"
      values={{ device: deviceText(session.device), address: session.ipAddress, at }}
      components={when}
    />
  ) : (
    <T
      id="settings.sessions.oneEnds"
      values={{ device: deviceText(session.device), at }}
      components={when}
    />
  );
}

/**
 * Asks for the current password before sessions end (ASVS 7.5.2): a screen left signed in
 * is not enough to throw its owner out of their other devices, or to keep them out.
 */
function EndSessionsDialog({
  target,
  show,
  email,
  restoreFocus,
  onCancel,
  onEnded,
  onExited,
}: {
  target: SessionsToEnd;
  show: boolean;
  email: string;
  /** False when something else than the button that opened it is to take the focus. */
  restoreFocus: boolean;
  onCancel(): void;
  onEnded(revoked: number, signedOut: boolean): void;
  /** Once it has faded out: the target can go then, and the typed password with it. */
  onExited(): void;
}) {
  const t = useT();
  const titleId = useId();
  const endSessions = useEndAccountSessions();
  const busy = endSessions.isPending;
  const one = target.kind === 'one' ? target.session : null;

  return (
    // Open until the answer is in: its outcome, or its failure, is shown here.
    <GuardedModal
      show={show}
      busy={busy}
      onHide={onCancel}
      onExited={onExited}
      restoreFocus={restoreFocus}
      aria-labelledby={titleId}
    >
      <PasswordStep
        id="end-sessions-password"
        titleId={titleId}
        title={t(one ? 'settings.sessions.endOneTitle' : 'settings.sessions.endOthersTitle')}
        email={email}
        submitLabel={t(one ? 'settings.sessions.endOne' : 'settings.sessions.endOthers')}
        danger
        onCancel={onCancel}
        onSubmit={async ({ currentPassword }) => {
          const { revoked, signedOut } = await endSessions.mutateAsync(
            one ? { currentPassword, sessionIds: [one.id] } : { currentPassword, allOthers: true },
          );
          onEnded(revoked, signedOut);
        }}
      >
        {one?.current ? <p>{t('settings.sessions.thisOneEnds')}</p> : null}
        {one && !one.current ? (
          <p>
            <SessionEnds session={one} />
          </p>
        ) : null}
        {one ? null : <p>{t('settings.sessions.othersEnd')}</p>}
      </PasswordStep>
    </GuardedModal>
  );
}

/**
 * Every session of the operator's account that still signs in: where, since when, last
 * used; any of them, or all but this one, ended with the current password.
 */
export function SignedInSessions({ email }: { email: string }) {
  const t = useT();
  const sessions = useAccountSessions();
  const flash = useFlash();
  const navigate = useNavigate();
  const headingId = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  const dialog = useDialogFor<SessionsToEnd>();
  const { target } = dialog;
  const others = sessions.data?.items.filter((session) => !session.current).length ?? 0;

  function ended(to: SessionsToEnd, revoked: number, signedOut: boolean) {
    if (signedOut) {
      dialog.close();
      flash.success(translate('settings.sessions.signedOutHere'), ACCOUNT_MESSAGE_SECONDS);
      navigate(paths.login);
      return;
    }
    // The row's "End" is gone, or "End all other sessions" is now disabled: the focus goes to
    // the section's heading, not to the page's start.
    dialog.closeAndFocus(() => heading.current);
    flash.success(sessionsEndedText(to, revoked), ACCOUNT_MESSAGE_SECONDS);
  }

  return (
    <section aria-labelledby={headingId} className="mb-4">
      {/* Focused (to be read from, not a control) once a dialog's button went with what it did. */}
      <h3 className="h6" id={headingId} ref={heading} tabIndex={-1}>
        {t('settings.sessions.heading')}
      </h3>
      <p className="text-body-secondary">{t('settings.sessions.intro')}</p>
      {/* A plain line, not a status region: the flash messages are the page's one status region. */}
      {sessions.isPending ? (
        <p className="text-body-secondary">{t('settings.sessions.loading')}</p>
      ) : null}
      {sessions.isError ? (
        <LoadFailed
          what={t('settings.sessions.load')}
          error={sessions.error}
          onRetry={() => void sessions.refetch()}
        />
      ) : null}
      {sessions.data ? (
        <Table responsive size="sm" className="table-stacked" aria-labelledby={headingId}>
          <thead>
            <tr>
              <th scope="col">{t('settings.sessions.device')}</th>
              <th scope="col">{t('settings.sessions.address')}</th>
              <th scope="col">{t('settings.sessions.signedIn')}</th>
              <th scope="col">{t('settings.sessions.lastActive')}</th>
              <th scope="col">
                <span className="visually-hidden">{t('settings.actions')}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {sessions.data.items.map((session) => (
              <tr key={session.id}>
                <td>
                  {deviceText(session.device)}
                  {session.current ? (
                    <span className="badge text-bg-success ms-2">
                      {t('settings.sessions.thisDevice')}
                    </span>
                  ) : null}
                </td>
                <td data-label={t('settings.sessions.address')}>
                  {session.ipAddress ?? t('settings.sessions.unknownAddress')}
                </td>
                <td data-label={t('settings.sessions.signedIn')}>
                  <When at={session.createdAt} />
                </td>
                <td data-label={t('settings.sessions.lastActive')}>
                  <When at={session.lastActiveAt} />
                </td>
                <td className="text-end">
                  <Button
                    size="sm"
                    variant="outline-danger"
                    onClick={() => dialog.ask({ kind: 'one', session })}
                    aria-label={
                      session.current
                        ? t('settings.sessions.endThisDevice')
                        : t('settings.sessions.endDevice', {
                            device: deviceText(session.device),
                            at: formatTime(session.createdAt),
                          })
                    }
                  >
                    {t('settings.sessions.end')}
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
          {t('settings.sessions.endOthers')}
        </Button>
      ) : null}
      {target ? (
        <EndSessionsDialog
          target={target}
          show={dialog.open}
          email={email}
          restoreFocus={dialog.restoreFocus}
          onCancel={dialog.close}
          onEnded={(revoked, signedOut) => ended(target, revoked, signedOut)}
          onExited={dialog.exited}
        />
      ) : null}
    </section>
  );
}
