import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import Container from 'react-bootstrap/Container';
import { Outlet, useLocation, useNavigate } from 'react-router';
import { paths } from '../../shared/paths.ts';
import { FlashMessages, useFlash } from '../components/flash-messages.tsx';
import { Navbar } from '../components/navbar.tsx';
import { forgetSignedInData, useSession, useSignOut } from '../lib/session.ts';
import { useSettings } from '../lib/settings-service.ts';
import { FAILURE_SECONDS, failureText, loggedOut } from '../lib/shell-messages.ts';
import { useTheme } from '../lib/theme.ts';
import { useLiveSync } from './live-sync.tsx';

/**
 * After a navigation, the new page's heading takes the focus (a screen reader announces
 * the page; the next Tab starts from it). Pages that load their data show the heading a
 * little later, so it is looked for over the next second. A page that put the focus in one
 * of its fields keeps it there.
 */
function useFocusOnNavigation(): void {
  const { pathname } = useLocation();
  const first = useRef(true);
  // biome-ignore lint/correctness/useExhaustiveDependencies: it runs on every navigation.
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    let frames = 0;
    let handle = 0;
    const focusHeading = () => {
      // A page that opened with a field ready to type in keeps it ("Add charge" after
      // adding a client).
      if (document.activeElement?.closest('main input, main textarea, main select')) return;
      const heading = document.querySelector<HTMLElement>('main h1');
      if (heading) {
        if (!heading.hasAttribute('tabindex')) heading.setAttribute('tabindex', '-1');
        heading.focus();
        return;
      }
      frames += 1;
      if (frames < 60) handle = requestAnimationFrame(focusHeading);
      else document.querySelector<HTMLElement>('main')?.focus();
    };
    handle = requestAnimationFrame(focusHeading);
    return () => cancelAnimationFrame(handle);
  }, [pathname]);
}

export function AppLayout() {
  const session = useSession();
  const settings = useSettings();
  const signOut = useSignOut();
  const flash = useFlash();
  const navigate = useNavigate();
  const { theme, toggle } = useTheme();
  const queryClient = useQueryClient();
  // Until they turn on the two-factor sign-in the administrator requires, an operator has only
  // its setup: no live channel (the server refuses it), no other page in the navbar.
  useLiveSync(session.data?.twoFactorSetupRequired ? null : (session.data?.id ?? null));
  useFocusOnNavigation();
  // Runs after the commit that left the signed-in pages, so no page still watches the data.
  const signedOut = session.data === null;
  useEffect(() => {
    if (signedOut) forgetSignedInData(queryClient);
  }, [signedOut, queryClient]);

  async function logout() {
    try {
      await signOut.mutateAsync();
      flash.success(loggedOut.text, loggedOut.seconds);
      navigate(paths.login);
    } catch (error) {
      flash.failure(failureText('Logout failed', error), FAILURE_SECONDS);
    }
  }

  return (
    <>
      <a href="#main" className="skip-link">
        Skip to main content
      </a>
      <Navbar
        email={session.data?.email ?? null}
        role={session.data?.role ?? null}
        setupOnly={session.data?.twoFactorSetupRequired}
        allowRegistrations={settings.data?.allowRegistrations ?? false}
        theme={theme}
        onToggleTheme={toggle}
        onLogout={() => void logout()}
      />
      <FlashMessages />
      <Container as="main" id="main" tabIndex={-1} className="pb-5">
        <Outlet />
      </Container>
    </>
  );
}
