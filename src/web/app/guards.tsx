import { Navigate, Outlet, useLocation } from 'react-router';
import { paths } from '../../shared/paths.ts';
import { LoadFailed, Loading } from '../components/loading.tsx';
import { useT } from '../i18n/translate.tsx';
import { inviteTokenOf, returnPath } from '../lib/return-path.ts';
import { useSession } from '../lib/session.ts';
import { useSettings } from '../lib/settings-service.ts';

/** Guarded routes send a signed-out visitor to /login. */
export function RequireSignedIn() {
  const t = useT();
  const session = useSession();
  const location = useLocation();
  if (session.isPending) return <Loading />;
  if (session.isError) {
    return (
      <LoadFailed
        what={t('shell.load.session')}
        error={session.error}
        onRetry={() => session.refetch()}
      />
    );
  }
  if (!session.data)
    return <Navigate to={paths.login} replace state={{ from: location.pathname }} />;
  // Until they turn on two-factor sign-in, the settings page offers them that alone.
  if (session.data.twoFactorSetupRequired && location.pathname !== paths.settings)
    return <Navigate to={paths.settings} replace />;
  return <Outlet />;
}

/** /login sends a signed-in operator to the dashboard. */
export function RequireSignedOut() {
  const session = useSession();
  const { search } = useLocation();
  if (session.isPending) return <Loading />;
  // Signed in from here: on to the page they came for (an invitation), else the dashboard.
  if (session.data) return <Navigate to={returnPath(search) ?? paths.dashboard} replace />;
  return <Outlet />;
}

/**
 * /register exists only while registrations are allowed, or for someone invited to a book
 * (`?invite=`: the server lets them in with the invitation).
 */
export function RequireRegistrationsOpen() {
  const t = useT();
  const settings = useSettings();
  const session = useSession();
  const invite = inviteTokenOf(useLocation().search);
  // Signed in already, an invitation is joined from its own page, not lost on the dashboard.
  if (session.data) {
    return <Navigate to={invite ? paths.invite(invite) : paths.dashboard} replace />;
  }
  if (invite) return <Outlet />;
  if (!settings.data) {
    if (settings.isError) {
      return (
        <LoadFailed
          what={t('shell.load.settings')}
          error={settings.error}
          onRetry={() => settings.refetch()}
        />
      );
    }
    return <Loading />;
  }
  if (!settings.data.allowRegistrations) return <Navigate to={paths.login} replace />;
  return <Outlet />;
}
