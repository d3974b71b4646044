import ListGroup from 'react-bootstrap/ListGroup';
import type { Client } from '../../../shared/client-schema.ts';
import type { ReminderChannel } from '../../../shared/reminder-schema.ts';
import { LoadFailed } from '../../components/loading.tsx';
import { formatTime } from '../../lib/dates.ts';
import { useReminders } from './collect-api.ts';

const CHANNEL_LABELS: Record<ReminderChannel, string> = {
  whatsapp: 'WhatsApp',
  sms: 'SMS',
  email: 'E-mail',
  copy: 'Copied',
};

function ReminderList({ clientId }: { clientId: string }) {
  const reminders = useReminders(clientId);
  if (reminders.isError) {
    return (
      <LoadFailed
        what="the reminders"
        error={reminders.error}
        onRetry={() => reminders.refetch()}
      />
    );
  }
  if (!reminders.data) return <p className="text-body-secondary">Loading…</p>;
  return (
    <ListGroup as="ul" aria-label="Reminders sent">
      {reminders.data.items.map((reminder) => (
        <ListGroup.Item as="li" key={reminder.id}>
          <div className="small text-body-secondary">
            {formatTime(reminder.sentAt)} · {CHANNEL_LABELS[reminder.channel]} · by{' '}
            {reminder.by.email}
          </div>
          <div style={{ whiteSpace: 'pre-wrap' }}>{reminder.message}</div>
        </ListGroup.Item>
      ))}
    </ListGroup>
  );
}

/**
 * The reminders sent to a client, newest first, beside the ledger's history: who sent which
 * words, how and when. A client never reminded asks nothing of the server.
 */
export function RemindersHistory({ client }: { client: Client }) {
  return (
    <section aria-labelledby="reminders-heading" className="mt-4">
      <h2 id="reminders-heading" className="h4">
        Reminders
      </h2>
      {client.lastRemindedOn ? (
        <ReminderList clientId={client.id} />
      ) : (
        <p className="text-body-secondary">No reminder sent yet.</p>
      )}
    </section>
  );
}
