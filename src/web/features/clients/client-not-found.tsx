import Alert from 'react-bootstrap/Alert';
import { Link } from 'react-router';
import { usePageTitle } from '../../components/page-title.ts';
import { useT } from '../../i18n/translate.tsx';
import { lastListPlace } from './list-place.ts';

export function ClientNotFound({ deletedElsewhere = false }: { deletedElsewhere?: boolean }) {
  const t = useT();
  usePageTitle(t('clients.not-found.title'));
  return (
    <Alert variant="warning" role="alert">
      <h1 className="h4">{t('clients.not-found.title')}</h1>
      <p>{t(deletedElsewhere ? 'clients.not-found.deleted' : 'clients.not-found.text')}</p>
      <Link to={lastListPlace()} className="btn btn-primary">
        {t('shell.backToDashboard')}
      </Link>
    </Alert>
  );
}
