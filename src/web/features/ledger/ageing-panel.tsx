import { useQuery } from '@tanstack/react-query';
import Card from 'react-bootstrap/Card';
import { Link } from 'react-router';
import { apiPaths, paths } from '../../../shared/paths.ts';
import { LoadFailed } from '../../components/loading.tsx';
import { useT } from '../../i18n/translate.tsx';
import { useMay } from '../../lib/books.ts';
import { formatDay } from '../../lib/dates.ts';
import { AgeingTable } from './ageing.tsx';
import { ageingQuery } from './ledger-api.ts';

/**
 * The dashboard's ageing of what is owed: not yet due, then by how long past due, each bucket
 * a way into the list; the same as a CSV and as a page to print.
 */
export function AgeingPanel() {
  const t = useT();
  const ageing = useQuery(ageingQuery);
  const mayExport = useMay('clients.export');
  return (
    <Card as="section" aria-labelledby="ageing-heading" className="h-100">
      <Card.Body className="py-2">
        <div className="d-flex flex-wrap justify-content-between align-items-baseline gap-2">
          <h2 id="ageing-heading" className="h6 text-body-secondary mb-1">
            {ageing.data
              ? t('ledger.ageing.heading', { day: formatDay(ageing.data.today) })
              : t('ledger.ageing.title')}
          </h2>
          <div className="d-flex gap-2">
            {mayExport ? (
              <a className="btn btn-outline-secondary btn-sm" href={apiPaths.ageingExport} download>
                {t('ledger.ageing.downloadCsv')}
              </a>
            ) : null}
            <Link className="btn btn-outline-secondary btn-sm" to={paths.ageingPrint}>
              {t('ledger.print')}
            </Link>
          </div>
        </div>
        {ageing.isError && !ageing.data ? (
          <LoadFailed
            what={t('ledger.ageing.loadWhat')}
            error={ageing.error}
            onRetry={() => ageing.refetch()}
          />
        ) : null}
        {ageing.data ? <AgeingTable ageing={ageing.data} links /> : null}
      </Card.Body>
    </Card>
  );
}
