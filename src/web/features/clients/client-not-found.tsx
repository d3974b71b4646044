import Alert from 'react-bootstrap/Alert';
import { Link } from 'react-router';
import { paths } from '../../../shared/paths.ts';

export function ClientNotFound({ deletedElsewhere = false }: { deletedElsewhere?: boolean }) {
  return (
    <Alert variant="warning" role="alert">
      <h1 className="h4">Client not found</h1>
      <p>
        {deletedElsewhere
          ? 'This client was deleted elsewhere.'
          : 'There is no client at this address, or it has been deleted.'}
      </p>
      <Link to={paths.dashboard} className="btn btn-primary">
        Back to Dashboard
      </Link>
    </Alert>
  );
}
