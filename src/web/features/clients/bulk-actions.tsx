import { type ReactNode, useState } from 'react';
import type { Client } from '../../../shared/client-schema.ts';
import { lazyDialog } from '../../components/lazy-dialog.tsx';
import { useT } from '../../i18n/translate.tsx';
import { useMay } from '../../lib/books.ts';

// The delete (its dialog, the modal code under it, its requests and messages) is loaded when
// asked for: the list shows without it; if it cannot load, the list stays.
const BulkDeleteDialog = lazyDialog(
  'delete dialog',
  () => import('./bulk-delete-dialog.tsx').then((m) => m.BulkDeleteDialog),
  'clients.bulk.dialog',
);

/**
 * What can be done with the rows picked on a page: delete them together or download them as
 * CSV. The bar keeps its height while empty, so that picking the first row does not move the
 * table under the pointer.
 */
export function BulkActions({
  selected,
  exportHref,
  onClear,
  extra,
}: {
  selected: readonly Client[];
  exportHref: string;
  onClear(): void;
  /** What another feature does with the picked rows (a page passes it in). */
  extra?: ReactNode;
}) {
  const t = useT();
  const [confirming, setConfirming] = useState(false);
  const mayDelete = useMay('clients.delete');
  const mayExport = useMay('clients.export');
  return (
    <div
      {...(selected.length > 0 ? { role: 'group', 'aria-label': t('clients.bulk.label') } : {})}
      className="bulk-actions d-none d-md-flex flex-wrap align-items-center gap-2 mb-2"
    >
      {selected.length > 0 ? (
        <>
          <span aria-live="polite">{t('clients.bulk.count', { count: selected.length })}</span>
          {mayDelete ? (
            <button
              type="button"
              className="btn btn-outline-danger btn-sm"
              onClick={() => setConfirming(true)}
            >
              {t('clients.bulk.delete')}
            </button>
          ) : null}
          {mayExport ? (
            <a className="btn btn-outline-secondary btn-sm" href={exportHref} download>
              {t('clients.bulk.export')}
            </a>
          ) : null}
          {extra}
          <button type="button" className="btn btn-link btn-sm" onClick={onClear}>
            {t('clients.bulk.clear')}
          </button>
        </>
      ) : null}
      {confirming ? (
        <BulkDeleteDialog
          clients={selected}
          onClose={() => setConfirming(false)}
          onDeleted={onClear}
        />
      ) : null}
    </div>
  );
}
