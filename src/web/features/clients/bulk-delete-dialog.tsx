import { useQueryClient } from '@tanstack/react-query';
import type { Client } from '../../../shared/client-schema.ts';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { useFlash } from '../../components/flash-messages.tsx';
import { T, translate, useT } from '../../i18n/translate.tsx';
import { failureText, messages } from '../../lib/messages.ts';
import { restoreDeletedClients, useDeleteClients } from './bulk-api.ts';

const SHOWN_NAMES = 5;

function namesOf(clients: readonly Client[]): string {
  const names = clients.slice(0, SHOWN_NAMES).map((c) => `${c.fname} ${c.lname}`);
  const more = clients.length - names.length;
  return more > 0
    ? translate('clients.bulk.names', { names: names.join(', '), more })
    : names.join(', ');
}

/**
 * "Are you sure ?" for picked clients, then one request deletes them all, and the message's
 * "Undo" restores them all with one more, as one client's delete and Undo do.
 */
export function BulkDeleteDialog({
  clients,
  onClose,
  onDeleted,
}: {
  clients: readonly Client[];
  onClose(): void;
  onDeleted(): void;
}) {
  const t = useT();
  const deleteClients = useDeleteClients();
  const queryClient = useQueryClient();
  const flash = useFlash();

  function undo(ids: readonly string[]) {
    restoreDeletedClients(queryClient, ids).then(
      (restored) => {
        if (restored.length > 0) {
          flash.success(
            translate('clients.bulk.restored', { count: restored.length }),
            messages.clientsRestoredSeconds,
          );
        }
        const missing = ids.length - restored.length;
        if (missing > 0) {
          flash.failure(
            translate('clients.bulk.tooLate', { count: missing }),
            messages.failureSeconds,
          );
        }
      },
      (error: unknown) =>
        flash.failure(
          failureText(translate('clients.bulk.notRestored'), error),
          messages.failureSeconds,
        ),
    );
  }

  async function remove() {
    try {
      const { deleted } = await deleteClients.mutateAsync(clients.map((client) => client.id));
      onClose();
      onDeleted();
      if (deleted.length === 0) {
        flash.failure(translate('clients.bulk.noneDeleted'), messages.failureSeconds);
        return;
      }
      flash.success(
        translate('clients.bulk.deleted', { count: deleted.length }),
        messages.clientsDeletedSeconds,
        { label: translate('clients.undo'), run: () => undo(deleted) },
      );
    } catch (error) {
      onClose();
      flash.failure(
        failureText(translate('clients.bulk.notDeleted'), error),
        messages.failureSeconds,
      );
    }
  }

  return (
    <ConfirmDialog
      show
      busy={deleteClients.isPending}
      title={t('clients.delete.title')}
      confirmLabel={t('clients.delete')}
      onCancel={onClose}
      onConfirm={() => void remove()}
    >
      <T
        id="clients.bulk.confirm"
        values={{ count: clients.length, names: namesOf(clients) }}
        components={{ 0: <strong /> }}
      />
    </ConfirmDialog>
  );
}
