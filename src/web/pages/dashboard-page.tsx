import { lazy, Suspense, useState } from 'react';
import { Link } from 'react-router';
import { paths } from '../../shared/paths.ts';
import { lazyDialog } from '../components/lazy-dialog.tsx';
import { usePageTitle } from '../components/page-title.ts';
import { ClientsList } from '../features/clients/clients-list.tsx';
import { useT } from '../i18n/translate.tsx';
import { useMay } from '../lib/books.ts';
import { listReminders } from './list-reminders.tsx';

// The totals and their chart come after the list, in their own chunk: the list is what the
// operator opened the dashboard for, and it shows without waiting for them.
const LedgerSummary = lazy(async () => ({
  default: (await import('../features/ledger/ledger-summary.tsx')).LedgerSummary,
}));

// Today's round comes after the list too: the link shows once the round is read.
const CollectTodayLink = lazy(async () => ({
  default: (await import('../features/collect/collect-link.tsx')).CollectTodayLink,
}));

// Import is used now and then, and brings its own screens: loaded when opened (if it cannot
// load, the dashboard stays).
const ImportDialog = lazyDialog(
  'import',
  () => import('../features/clients/import-dialog.tsx').then((m) => m.ImportDialog),
  'clients.import.dialog',
);

export function DashboardPage() {
  const t = useT();
  usePageTitle(t('shell.nav.dashboard'));
  const [importing, setImporting] = useState(false);
  const mayAdd = useMay('clients.add');
  const mayImport = useMay('clients.import');
  return (
    // Bootstrap's classes, not react-bootstrap's Row, Col and Button: the first load is budgeted.
    <div className="row">
      {/* First in the page, so "New" comes before the rows on a phone; beside them when wide. */}
      <aside
        aria-label={t('clients.dashboard.sidebar')}
        className="col-12 col-md-2 order-md-last mb-3 align-self-start"
      >
        <Suspense fallback={null}>
          <CollectTodayLink />
        </Suspense>
        {mayAdd ? (
          <Link to={paths.addClient} className="btn btn-success w-100 mt-md-2">
            {t('clients.dashboard.new')}
          </Link>
        ) : null}
        {mayImport ? (
          <button
            type="button"
            className="btn btn-outline-secondary w-100 mt-2"
            onClick={() => setImporting(true)}
          >
            {t('clients.dashboard.import')}
          </button>
        ) : null}
        {importing && <ImportDialog onClose={() => setImporting(false)} />}
      </aside>
      <div className="col-md-10">
        <ClientsList
          {...listReminders}
          summary={
            <Suspense fallback={<div className="ledger-summary" />}>
              <LedgerSummary />
            </Suspense>
          }
        />
      </div>
    </div>
  );
}
