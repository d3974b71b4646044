import { useQueryClient } from '@tanstack/react-query';
import type { Client } from '../../../shared/client-schema.ts';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { useFlash } from '../../components/flash-messages.tsx';
import { failureText, messages } from '../../lib/messages.ts';
import { restoreDeletedClients, useDeleteClients } from './bulk-api.ts';

const SHOWN_NAMES = 5;

function clientCount(n: number): string {
  return `${new Intl.NumberFormat('en-IN').format(n)} ${n === 1 ? 'client' : 'clients'}`;
}

function namesOf(clients: readonly Client[]): string {
  const names = clients.slice(0, SHOWN_NAMES).map((c) => `${c.fname} ${c.lname}`);
  const more = clients.length - names.length;
  return more > 0 ? `${names.join(', ')} and ${more} more` : names.join(', ');
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
  const deleteClients = useDeleteClients();
  const queryClient = useQueryClient();
  const flash = useFlash();

  function undo(ids: readonly string[]) {
    restoreDeletedClients(queryClient, ids).then(
      (restored) => {
        if (restored.length > 0) {
          flash.success(
            `${clientCount(restored.length)} restored`,
            messages.clientsRestoredSeconds,
          );
        }
        const missing = ids.length - restored.length;
        if (missing > 0) {
          flash.failure(
            `${clientCount(missing)} could not be restored: deleted clients are kept for 10 minutes`,
            messages.failureSeconds,
          );
        }
      },
      (error: unknown) =>
        flash.failure(failureText('The clients were not restored', error), messages.failureSeconds),
    );
  }

  async function remove() {
    try {
      const { deleted } = await deleteClients.mutateAsync(clients.map((client) => client.id));
      onClose();
      onDeleted();
      if (deleted.length === 0) {
        flash.failure('No client was deleted: they were gone already', messages.failureSeconds);
        return;
      }
      flash.success(`${clientCount(deleted.length)} deleted`, messages.clientsDeletedSeconds, {
        label: 'Undo',
        run: () => undo(deleted),
      });
    } catch (error) {
      onClose();
      flash.failure(failureText('The clients were not deleted', error), messages.failureSeconds);
    }
  }

  return (
    <ConfirmDialog
      show
      busy={deleteClients.isPending}
      title="Are you sure ?"
      confirmLabel="Delete"
      onCancel={onClose}
      onConfirm={() => void remove()}
    >
      <strong>{clientCount(clients.length)}</strong> will be removed with their balances:{' '}
      {namesOf(clients)}.
    </ConfirmDialog>
  );
}
