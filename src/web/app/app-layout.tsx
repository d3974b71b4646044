import Container from 'react-bootstrap/Container';
import { Outlet, useNavigate } from 'react-router';
import { paths } from '../../shared/paths.ts';
import { FlashMessages, useFlash } from '../components/flash-messages.tsx';
import { Navbar } from '../components/navbar.tsx';
import { failureText, messages } from '../lib/messages.ts';
import { useSession, useSignOut } from '../lib/session.ts';
import { useSettings } from '../lib/settings-service.ts';
import { useLiveSync } from './live-sync.tsx';

export function AppLayout() {
  const session = useSession();
  const settings = useSettings();
  const signOut = useSignOut();
  const flash = useFlash();
  const navigate = useNavigate();
  useLiveSync(session.data?.id ?? null);

  async function logout() {
    try {
      await signOut.mutateAsync();
      flash.success(messages.loggedOut.text, messages.loggedOut.seconds);
      navigate(paths.login);
    } catch (error) {
      flash.failure(failureText('Logout failed', error), messages.failureSeconds);
    }
  }

  return (
    <>
      <Navbar
        email={session.data?.email ?? null}
        allowRegistrations={settings.data?.allowRegistrations ?? false}
        onLogout={() => void logout()}
      />
      <Container as="main">
        <FlashMessages />
        <Outlet />
      </Container>
    </>
  );
}
