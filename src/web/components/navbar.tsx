import Badge from 'react-bootstrap/Badge';
import Container from 'react-bootstrap/Container';
import Nav from 'react-bootstrap/Nav';
import BootstrapNavbar from 'react-bootstrap/Navbar';
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
    <Nav.Link as="button" type="button" onClick={onToggle} aria-label={`Use the ${next} theme`}>
      <span aria-hidden="true">{theme === 'dark' ? '☀' : '☾'}</span>
      <span className="d-md-none ms-2">{next === 'dark' ? 'Dark theme' : 'Light theme'}</span>
    </Nav.Link>
  );
}

export function Navbar({
  email,
  role,
  setupOnly,
  allowRegistrations,
  theme,
  onToggleTheme,
  onLogout,
}: NavbarProps) {
  return (
    <BootstrapNavbar data-bs-theme="dark" expand="md" className="mb-4 panel-navbar">
      <Container>
        <BootstrapNavbar.Brand as={Link} to={paths.home}>
          Client Panel
        </BootstrapNavbar.Brand>
        <BootstrapNavbar.Toggle aria-controls="main-navbar" label="Menu" />
        <BootstrapNavbar.Collapse id="main-navbar">
          {email ? (
            <>
              <Nav className="me-auto">
                {setupOnly ? null : (
                  <Nav.Link as={NavLink} to={paths.dashboard}>
                    Dashboard
                  </Nav.Link>
                )}
              </Nav>
              <Nav>
                <BootstrapNavbar.Text className="me-3" data-testid="navbar-email">
                  {email}
                  {role === 'admin' ? (
                    <Badge bg="light" text="dark" className="ms-2">
                      Administrator
                    </Badge>
                  ) : null}
                </BootstrapNavbar.Text>
                {setupOnly ? null : (
                  <Nav.Link as={NavLink} to={paths.settings}>
                    Settings
                  </Nav.Link>
                )}
                <ThemeToggle theme={theme} onToggle={onToggleTheme} />
                <Nav.Link as="button" type="button" onClick={onLogout}>
                  Logout
                </Nav.Link>
              </Nav>
            </>
          ) : (
            <Nav className="ms-auto">
              <Nav.Link as={NavLink} to={paths.login}>
                Login
              </Nav.Link>
              {allowRegistrations ? (
                <Nav.Link as={NavLink} to={paths.register}>
                  Register
                </Nav.Link>
              ) : null}
              <ThemeToggle theme={theme} onToggle={onToggleTheme} />
            </Nav>
          )}
        </BootstrapNavbar.Collapse>
      </Container>
    </BootstrapNavbar>
  );
}
