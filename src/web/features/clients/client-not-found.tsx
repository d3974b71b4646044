import Alert from 'react-bootstrap/Alert';
import { Link } from 'react-router';
import { usePageTitle } from '../../components/page-title.ts';
import { lastListPlace } from './list-place.ts';

export function ClientNotFound({ deletedElsewhere = false }: { deletedElsewhere?: boolean }) {
  usePageTitle('Client not found');
  return (
    <Alert variant="warning" role="alert">
      <h1 className="h4">Client not found</h1>
      <p>
        {deletedElsewhere
          ? 'This client was deleted elsewhere.'
          : 'There is no client at this address, or it has been deleted.'}
      </p>
      <Link to={lastListPlace()} className="btn btn-primary">
        Back to Dashboard
      </Link>
    </Alert>
  );
}
