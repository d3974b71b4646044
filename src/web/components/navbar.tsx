import { useState } from 'react';
import { Link, NavLink } from 'react-router';
import type { OperatorRole } from '../../shared/operator-schema.ts';
import { paths } from '../../shared/paths.ts';
import type { Theme } from '../lib/theme.ts';

interface NavbarProps {
  /** The signed-in operator's e-mail; null when signed out. */
  email: string | null;
  role: OperatorRole | null;
  /** Signed in, but only the two-factor setup is open to them: no page to go to. */
  setupOnly: boolean | undefined;
  allowRegistrations: boolean;
  theme: Theme;
  onToggleTheme(): void;
  onLogout(): void;
}

function ThemeToggle({ theme, onToggle }: { theme: Theme; onToggle(): void }) {
  const next = theme === 'dark' ? 'light' : 'dark';
  return (
    <button
      type="button"
      className="nav-link"
      onClick={onToggle}
      aria-label={`Use the ${next} theme`}
    >
      <span aria-hidden="true">{theme === 'dark' ? '☀' : '☾'}</span>
      <span className="d-md-none ms-2">{next === 'dark' ? 'Dark theme' : 'Light theme'}</span>
    </button>
  );
}

/**
 * Bootstrap's navbar from its classes rather than react-bootstrap's Navbar, whose
 * transitions cost the sign-in page 16 KB (decision 0013): below the md width its links fold
 * behind the "Menu" button.
 */
export function Navbar({
  email,
  role,
  setupOnly,
  allowRegistrations,
  theme,
  onToggleTheme,
  onLogout,
}: NavbarProps) {
  const [open, setOpen] = useState(false);
  return (
    <nav data-bs-theme="dark" className="mb-4 panel-navbar navbar navbar-expand-md">
      <div className="container">
        <Link className="navbar-brand" to={paths.home}>
          Client Panel
        </Link>
        <button
          type="button"
          className={open ? 'navbar-toggler' : 'navbar-toggler collapsed'}
          aria-controls="main-navbar"
          aria-expanded={open}
          aria-label="Menu"
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
                      Dashboard
                    </NavLink>
                    <NavLink className="nav-link" to={paths.collect}>
                      Collect
                    </NavLink>
                  </>
                )}
              </div>
              <div className="navbar-nav">
                <span className="navbar-text me-3" data-testid="navbar-email">
                  {email}
                  {role === 'admin' ? (
                    <span className="badge bg-light text-dark ms-2">Administrator</span>
                  ) : null}
                </span>
                {setupOnly ? null : (
                  <NavLink className="nav-link" to={paths.settings}>
                    Settings
                  </NavLink>
                )}
                <ThemeToggle theme={theme} onToggle={onToggleTheme} />
                <button type="button" className="nav-link" onClick={onLogout}>
                  Logout
                </button>
              </div>
            </>
          ) : (
            <div className="navbar-nav ms-auto">
              <NavLink className="nav-link" to={paths.login}>
                Login
              </NavLink>
              {allowRegistrations ? (
                <NavLink className="nav-link" to={paths.register}>
                  Register
                </NavLink>
              ) : null}
              <ThemeToggle theme={theme} onToggle={onToggleTheme} />
            </div>
          )}
        </div>
      </div>
    </nav>
  );
}
