import { type ReactNode, useCallback, useState } from 'react';
import { Link, NavLink } from 'react-router';
import { isLanguage, LANGUAGE_NAMES, LANGUAGES, type Language } from '../../shared/languages.ts';
import type { OperatorRole } from '../../shared/operator-schema.ts';
import { paths } from '../../shared/paths.ts';
import { useT } from '../i18n/translate.tsx';
import { useLanguage } from '../i18n/use-language.ts';
import type { Theme } from '../lib/theme.ts';

interface NavbarProps {
  /** The signed-in operator's e-mail; null when signed out. */
  email: string | null;
  role: OperatorRole | null;
  /** Signed in, but only the two-factor setup is open to them: no page to go to. */
  setupOnly: boolean | undefined;
  allowRegistrations: boolean;
  /** The current book and its menu (signed in); loaded with the signed-in part. */
  bookMenu?: ReactNode;
  theme: Theme;
  onToggleTheme(): void;
  onLogout(): void;
  onChangeLanguage(language: Language): void;
}

function ThemeToggle({ theme, onToggle }: { theme: Theme; onToggle(): void }) {
  const t = useT();
  const next = theme === 'dark' ? 'light' : 'dark';
  return (
    <button
      type="button"
      className="nav-link"
      onClick={onToggle}
      aria-label={t('shell.theme.use', { theme: next })}
    >
      <span aria-hidden="true">{theme === 'dark' ? '☀' : '☾'}</span>
      <span className="d-xl-none ms-2">{t('shell.theme.name', { theme: next })}</span>
    </button>
  );
}

/** The page is drawn again in the new language: the menu that changed it keeps the focus. */
let focusPickerWhenDrawn = false;

/** Each language named in itself, so that someone who cannot read the other finds theirs. */
function LanguagePicker({ onChange }: { onChange(language: Language): void }) {
  const t = useT();
  const language = useLanguage();
  const focusIfChanged = useCallback((select: HTMLSelectElement | null) => {
    if (select && focusPickerWhenDrawn) {
      focusPickerWhenDrawn = false;
      select.focus();
    }
  }, []);
  return (
    <div className="navbar-text py-1 me-xl-2">
      <select
        ref={focusIfChanged}
        className="form-select form-select-sm"
        aria-label={t('shell.nav.language')}
        value={language}
        onChange={(event) => {
          if (!isLanguage(event.target.value)) return;
          focusPickerWhenDrawn = document.activeElement === event.target;
          onChange(event.target.value);
        }}
      >
        {LANGUAGES.map((code) => (
          <option key={code} value={code} lang={code}>
            {LANGUAGE_NAMES[code]}
          </option>
        ))}
      </select>
    </div>
  );
}

/**
 * Bootstrap's navbar from its classes rather than react-bootstrap's Navbar, whose
 * transitions cost the sign-in page 16 KB (decision 0013): below the xl width (1200 px) its
 * links fold behind the "Menu" button. Spread out at 768 px, the book, an e-mail address of 30
 * letters and the links ran 360 px past the screen's edge; at 992 an administrator's badge
 * still ran over Settings.
 */
export function Navbar({
  email,
  role,
  setupOnly,
  allowRegistrations,
  bookMenu,
  theme,
  onToggleTheme,
  onLogout,
  onChangeLanguage,
}: NavbarProps) {
  const t = useT();
  const [open, setOpen] = useState(false);
  return (
    <nav data-bs-theme="dark" className="mb-4 panel-navbar navbar navbar-expand-xl">
      <div className="container">
        <Link className="navbar-brand" to={paths.home}>
          {t('shell.brand')}
        </Link>
        {/* Outside the folding menu: the book worked in stays in sight on a phone too. */}
        {email ? bookMenu : null}
        <button
          type="button"
          className={open ? 'navbar-toggler' : 'navbar-toggler collapsed'}
          aria-controls="main-navbar"
          aria-expanded={open}
          aria-label={t('shell.nav.menu')}
          onClick={() => setOpen(!open)}
        >
          <span className="navbar-toggler-icon" />
        </button>
        <div
          id="main-navbar"
          className={open ? 'navbar-collapse collapse show' : 'navbar-collapse collapse'}
        >
          {email ? (
            <>
              <div className="navbar-nav me-auto">
                {setupOnly ? null : (
                  <>
                    <NavLink className="nav-link" to={paths.dashboard}>
                      {t('shell.nav.dashboard')}
                    </NavLink>
                    <NavLink className="nav-link" to={paths.collect}>
                      {t('shell.nav.collect')}
                    </NavLink>
                  </>
                )}
              </div>
              <div className="navbar-nav navbar-account-links">
                <span
                  className="navbar-text navbar-account me-3 d-inline-flex align-items-center"
                  data-testid="navbar-email"
                >
                  {/* One line, cut short if long: wrapped, it made the navbar a line taller
                      once the book menu beside it loaded, and moved the whole page down. */}
                  <span className="text-truncate navbar-email" title={email}>
                    {email}
                  </span>
                  {role === 'admin' ? (
                    <span className="badge bg-light text-dark ms-2">
                      {t('shell.nav.administrator')}
                    </span>
                  ) : null}
                </span>
                {setupOnly ? null : (
                  <NavLink className="nav-link" to={paths.settings}>
                    {t('shell.nav.settings')}
                  </NavLink>
                )}
                <LanguagePicker onChange={onChangeLanguage} />
                <ThemeToggle theme={theme} onToggle={onToggleTheme} />
                <button type="button" className="nav-link" onClick={onLogout}>
                  {t('shell.nav.logout')}
                </button>
              </div>
            </>
          ) : (
            <div className="navbar-nav ms-auto">
              <NavLink className="nav-link" to={paths.login}>
                {t('shell.nav.login')}
              </NavLink>
              {allowRegistrations ? (
                <NavLink className="nav-link" to={paths.register}>
                  {t('shell.nav.register')}
                </NavLink>
              ) : null}
              <LanguagePicker onChange={onChangeLanguage} />
              <ThemeToggle theme={theme} onToggle={onToggleTheme} />
            </div>
          )}
        </div>
      </div>
    </nav>
  );
}
