import Container from 'react-bootstrap/Container';
import Nav from 'react-bootstrap/Nav';
import BootstrapNavbar from 'react-bootstrap/Navbar';
import { Link, NavLink } from 'react-router';
import { paths } from '../../shared/paths.ts';

interface NavbarProps {
  /** The signed-in operator's e-mail; null when signed out. */
  email: string | null;
  allowRegistrations: boolean;
  onLogout(): void;
}

export function Navbar({ email, allowRegistrations, onLogout }: NavbarProps) {
  return (
    <BootstrapNavbar bg="primary" data-bs-theme="dark" expand="md" className="mb-4">
      <Container>
        <BootstrapNavbar.Brand as={Link} to={paths.home}>
          Client Panel
        </BootstrapNavbar.Brand>
        <BootstrapNavbar.Toggle aria-controls="main-navbar" />
        <BootstrapNavbar.Collapse id="main-navbar">
          {email ? (
            <>
              <Nav className="me-auto">
                <Nav.Link as={NavLink} to={paths.dashboard}>
                  Dashboard
                </Nav.Link>
              </Nav>
              <Nav>
                <BootstrapNavbar.Text className="me-3" data-testid="navbar-email">
                  {email}
                </BootstrapNavbar.Text>
                <Nav.Link as={NavLink} to={paths.settings}>
                  Settings
                </Nav.Link>
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
            </Nav>
          )}
        </BootstrapNavbar.Collapse>
      </Container>
    </BootstrapNavbar>
  );
}
