import type { ReactNode } from 'react';
import { Link } from 'react-router';
import type { BookAction } from '../../shared/book-roles.ts';
import { paths } from '../../shared/paths.ts';
import { useT } from '../i18n/translate.tsx';
import { useBooks, useMay } from '../lib/books.ts';
import { LoadFailed, Loading } from './loading.tsx';

/**
 * A page only some roles may use (adding a client, editing one, the whole book's activity):
 * anyone else, come by its address, is told so instead of being shown a form the server would
 * refuse.
 */
export function RequireMay({ action, children }: { action: BookAction; children: ReactNode }) {
  const t = useT();
  const books = useBooks();
  const may = useMay(action);
  if (books.isError && !books.data) {
    return (
      <LoadFailed
        what={t('clients.load.books')}
        error={books.error}
        onRetry={() => books.refetch()}
      />
    );
  }
  if (!books.data) return <Loading />;
  if (!may) {
    return (
      <div className="alert alert-warning" role="alert">
        <p className="mb-2">{t('clients.forbidden')}</p>
        <Link to={paths.dashboard} className="alert-link">
          {t('shell.backToDashboard')}
        </Link>
      </div>
    );
  }
  return children;
}
