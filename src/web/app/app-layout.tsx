import { Suspense, useEffect, useRef } from 'react';
import { Outlet, useLocation, useNavigate } from 'react-router';
import { paths } from '../../shared/paths.ts';
import { FlashMessages, useFlash } from '../components/flash-messages.tsx';
import { Loading } from '../components/loading.tsx';
import { Navbar } from '../components/navbar.tsx';
import { translate, useT } from '../i18n/translate.tsx';
import { useLanguageChoice } from '../i18n/use-language-choice.ts';
import { keepTabInDialogs } from '../lib/dialog-focus.ts';
import { useSession, useSignOut } from '../lib/session.ts';
import { useSettings } from '../lib/settings-service.ts';
import { FAILURE_SECONDS, failureText, loggedOut } from '../lib/shell-messages.ts';
import { useTheme } from '../lib/theme.ts';
import { ErrorBoundary } from './error-boundary.tsx';
import type { SignedInLoader } from './signed-in-loader.tsx';

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

/**
 * Another operator's data must never linger: when who is signed in changes (signed out, or
 * another operator), the query cache is emptied, after the commit that left the signed-in
 * pages, so that no page still watches the data.
 */
function useForgetOnChange(signedIn: SignedInLoader, operatorId: string | null | undefined) {
  const previous = useRef(operatorId);
  useEffect(() => {
    if (previous.current && previous.current !== operatorId) {
      signedIn.current?.client.removeQueries();
    }
    previous.current = operatorId;
  }, [operatorId, signedIn]);
}

export function AppLayout({ signedIn }: { signedIn: SignedInLoader }) {
  const t = useT();
  const session = useSession();
  const settings = useSettings();
  const { signOut } = useSignOut();
  const flash = useFlash();
  const navigate = useNavigate();
  const { theme, toggle } = useTheme();
  const { pathname } = useLocation();
  const user = session.data;
  useForgetOnChange(signedIn, user?.id);
  useFocusOnNavigation();
  useEffect(() => keepTabInDialogs(), []);
  const chooseLanguage = useLanguageChoice(user ?? null);

  async function logout() {
    try {
      await signOut();
      flash.success(translate(loggedOut.id), loggedOut.seconds);
      navigate(paths.login);
    } catch (error) {
      flash.failure(failureText(translate('shell.logoutFailed'), error), FAILURE_SECONDS);
    }
  }

  // Until who is signed in is known, neither the navbar nor the page can be right.
  if (session.isPending) return <Loading />;

  return (
    <>
      <a href="#main" className="skip-link">
        {t('shell.skipLink')}
      </a>
      <Navbar
        email={user?.email ?? null}
        role={user?.role ?? null}
        setupOnly={user?.twoFactorSetupRequired}
        allowRegistrations={settings.data?.allowRegistrations ?? false}
        bookMenu={
          user && !user.twoFactorSetupRequired ? (
            <Suspense fallback={null}>
              <signedIn.BookMenu />
            </Suspense>
          ) : null
        }
        theme={theme}
        onToggleTheme={toggle}
        onLogout={() => void logout()}
        onChangeLanguage={chooseLanguage}
      />
      <FlashMessages />
      {/* Until they turn on the two-factor sign-in the administrator requires, an operator has
          only its setup: no live channel (the server refuses it). */}
      {user && !user.twoFactorSetupRequired ? (
        <Suspense fallback={null}>
          <signedIn.LiveChannel operatorId={user.id} />
        </Suspense>
      ) : null}
      <main id="main" tabIndex={-1} className="pb-5 container">
        {/* A page that throws is replaced by "Something went wrong" (or, for a 404 from the
            API, "Page not found") under a working navbar,
            until the next page; one whose code is loading shows "Loading..." meanwhile. */}
        <ErrorBoundary resetKey={pathname}>
          <Suspense fallback={<Loading />}>
            <Outlet />
          </Suspense>
        </ErrorBoundary>
      </main>
    </>
  );
}
