import { useQuery } from '@tanstack/react-query';
import Button from 'react-bootstrap/Button';
import { Link } from 'react-router';
import { paths } from '../../../shared/paths.ts';
import { LoadFailed, Loading } from '../../components/loading.tsx';
import { usePageTitle } from '../../components/page-title.ts';
import { useT } from '../../i18n/translate.tsx';
import { formatDay } from '../../lib/dates.ts';
import { AgeingTable } from './ageing.tsx';
import { ageingQuery } from './ledger-api.ts';

/** The ageing of what is owed on a page of its own, printed as the statement is (no controls). */
export function AgeingPrintPage() {
  const t = useT();
  usePageTitle(t('ledger.ageing.title'));
  const ageing = useQuery(ageingQuery);
  return (
    <>
      <div className="d-print-none d-flex flex-wrap justify-content-between align-items-center gap-2 mb-2">
        <Link to={paths.dashboard} className="btn btn-link ps-0">
          {t('ledger.backToDashboard')}
        </Link>
        <Button variant="primary" onClick={() => window.print()} disabled={!ageing.data}>
          {t('ledger.print')}
        </Button>
      </div>
      {ageing.isPending ? <Loading /> : null}
      {ageing.isError ? (
        <LoadFailed
          what={t('ledger.ageing.loadWhat')}
          error={ageing.error}
          onRetry={() => ageing.refetch()}
        />
      ) : null}
      {ageing.data ? (
        <article aria-labelledby="ageing-print-heading" className="statement">
          <header className="mb-3">
            <h1 id="ageing-print-heading" className="h3" tabIndex={-1}>
              {t('ledger.ageing.printTitle')}
            </h1>
            <p className="mb-0 text-body-secondary">
              {t('ledger.ageing.asOf', { day: formatDay(ageing.data.today) })}
            </p>
          </header>
          <AgeingTable ageing={ageing.data} links={false} />
        </article>
      ) : null}
    </>
  );
}
