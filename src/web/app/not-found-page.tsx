import { Link } from 'react-router';
import { paths } from '../../shared/paths.ts';
import { usePageTitle } from '../components/page-title.ts';

export function NotFoundPage() {
  usePageTitle('Page not found');
  return (
    <div className="text-center py-5">
      <h1 className="display-5">Page not found</h1>
      <p className="lead">There is no page at this address.</p>
      <Link to={paths.dashboard} className="btn btn-primary">
        Go to the dashboard
      </Link>
    </div>
  );
}
