import { Link } from 'react-router';
import { paths } from '../../shared/paths.ts';
import { usePageTitle } from '../components/page-title.ts';

/**
 * Shown in place of a page that failed while rendering, instead of a blank screen: what
 * happened, and a way back. The navbar above it keeps working. Bootstrap's classes rather than
 * react-bootstrap's components: it is part of the app shell (decision 0013).
 */
export function RouteErrorPage({ error }: { error: unknown }) {
  usePageTitle('Something went wrong');
  const detail = error instanceof Error ? error.message : undefined;
  return (
    <div role="alert" className="alert alert-danger mt-3">
      <h1 className="h4">Something went wrong</h1>
      <p className="mb-2">This page could not be shown. Nothing you saved was lost.</p>
      {detail ? <p className="small text-body-secondary mb-3">{detail}</p> : null}
      <div className="d-flex gap-2">
        <Link to={paths.dashboard} className="btn btn-primary" reloadDocument>
          Back to Dashboard
        </Link>
        <button
          type="button"
          className="btn btn-outline-secondary"
          onClick={() => window.location.reload()}
        >
          Reload the page
        </button>
      </div>
    </div>
  );
}
