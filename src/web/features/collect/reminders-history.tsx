import ListGroup from 'react-bootstrap/ListGroup';
import type { Client } from '../../../shared/client-schema.ts';
import { LoadFailed } from '../../components/loading.tsx';
import { useT } from '../../i18n/translate.tsx';
import { formatTime } from '../../lib/dates.ts';
import { useReminders } from './collect-api.ts';

function ReminderList({ clientId }: { clientId: string }) {
  const t = useT();
  const reminders = useReminders(clientId);
  if (reminders.isError) {
    return (
      <LoadFailed
        what={t('collect.reminders.loadWhat')}
        error={reminders.error}
        onRetry={() => reminders.refetch()}
      />
    );
  }
  if (!reminders.data) return <p className="text-body-secondary">{t('collect.loading')}</p>;
  return (
    <ListGroup as="ul" aria-label={t('collect.reminders.sent')}>
      {reminders.data.items.map((reminder) => (
        <ListGroup.Item as="li" key={reminder.id}>
          <div className="small text-body-secondary">
            {formatTime(reminder.sentAt)} · {t('collect.channel', { channel: reminder.channel })} ·{' '}
            {t('collect.reminders.by', { email: reminder.by.email })}
          </div>
          {/* The statement link in it is one long word: broken anywhere to fit a phone. */}
          <div className="text-break" style={{ whiteSpace: 'pre-wrap' }}>
            {reminder.message}
          </div>
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
  const t = useT();
  return (
    <section aria-labelledby="reminders-heading" className="mt-4">
      <h2 id="reminders-heading" className="h4">
        {t('collect.reminders.title')}
      </h2>
      {client.lastRemindedOn ? (
        <ReminderList clientId={client.id} />
      ) : (
        <p className="text-body-secondary">{t('collect.reminders.none')}</p>
      )}
    </section>
  );
}
