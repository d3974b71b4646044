import { Link } from 'react-router';
import { paths } from '../../shared/paths.ts';
import { usePageTitle } from '../components/page-title.ts';
import { useT } from '../i18n/translate.tsx';

export function NotFoundPage() {
  const t = useT();
  usePageTitle(t('shell.not-found.title'));
  return (
    <div className="text-center py-5">
      <h1 className="display-5">{t('shell.not-found.title')}</h1>
      <p className="lead">{t('shell.not-found.text')}</p>
      <Link to={paths.dashboard} className="btn btn-primary">
        {t('shell.not-found.home')}
      </Link>
    </div>
  );
}
