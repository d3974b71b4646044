import { Link } from 'react-router';
import { paths } from '../../shared/paths.ts';
import { usePageTitle } from '../components/page-title.ts';
import { errorText } from '../i18n/errors.ts';
import { useT } from '../i18n/translate.tsx';
import { ApiError } from '../lib/api-client.ts';

/**
 * Shown in place of a page that failed while rendering, instead of a blank screen: what
 * happened, and a way back. The navbar above it keeps working. Bootstrap's classes rather than
 * react-bootstrap's components: it is part of the app shell (decision 0013). A refusal says
 * why in the chosen language; a crash shows the browser's own words for it (what a bug report
 * needs).
 */
export function RouteErrorPage({ error }: { error: unknown }) {
  const t = useT();
  usePageTitle(t('shell.crash.title'));
  const detail =
    error instanceof ApiError
      ? errorText(error)
      : error instanceof Error
        ? error.message
        : undefined;
  return (
    <div role="alert" className="alert alert-danger mt-3">
      <h1 className="h4">{t('shell.crash.title')}</h1>
      <p className="mb-2">{t('shell.crash.text')}</p>
      {detail ? <p className="small text-body-secondary mb-3">{detail}</p> : null}
      <div className="d-flex gap-2">
        <Link to={paths.dashboard} className="btn btn-primary" reloadDocument>
          {t('shell.backToDashboard')}
        </Link>
        <button
          type="button"
          className="btn btn-outline-secondary"
          onClick={() => window.location.reload()}
        >
          {t('shell.crash.reload')}
        </button>
      </div>
    </div>
  );
}
