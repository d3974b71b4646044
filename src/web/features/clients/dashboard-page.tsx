import Col from 'react-bootstrap/Col';
import Row from 'react-bootstrap/Row';
import { Link } from 'react-router';
import { paths } from '../../../shared/paths.ts';
import { ClientsList } from './clients-list.tsx';

export function DashboardPage() {
  return (
    <Row>
      <Col md={10}>
        <ClientsList />
      </Col>
      <Col md={2} as="aside" aria-label="Sidebar">
        <Link to={paths.addClient} className="btn btn-success w-100 mt-2">
          New
        </Link>
      </Col>
    </Row>
  );
}
