import { useState } from 'react';
import type { Client } from '../../../shared/client-schema.ts';
import { lazyDialog } from '../../components/lazy-dialog.tsx';
import { useT } from '../../i18n/translate.tsx';
import { useMay } from '../../lib/books.ts';

// The dialog (and the modal code under it) loads when a reminder is first asked for.
const RemindDialog = lazyDialog(
  'reminder',
  () => import('./remind-dialog.tsx').then((m) => m.RemindDialog),
  'collect.dialog.reminder',
);

/** "Remind" for one client (the client's page, a row of the list, a phone card). */
export function RemindButton({ client, size }: { client: Client; size?: 'sm' }) {
  const t = useT();
  const [open, setOpen] = useState(false);
  if (!useMay('reminders.send')) return null;
  return (
    <>
      <button
        type="button"
        className={size ? 'btn btn-outline-primary btn-sm' : 'btn btn-outline-primary'}
        aria-label={
          size ? t('collect.remind.label', { name: `${client.fname} ${client.lname}` }) : undefined
        }
        onClick={() => setOpen(true)}
      >
        {t('collect.remind.button')}
      </button>
      {open ? <RemindDialog client={client} onClose={() => setOpen(false)} /> : null}
    </>
  );
}

/**
 * "Remind selected": one client after another, since no app takes a batch of WhatsApp
 * messages. The next client's reminder opens when the operator comes back from sending,
 * or on Skip; Stop ends it.
 */
export function RemindSelected({
  clients,
  onDone,
}: {
  clients: readonly Client[];
  onDone(): void;
}) {
  const t = useT();
  const [queue, setQueue] = useState<readonly Client[] | null>(null);
  const [position, setPosition] = useState(0);
  const current = queue?.[position];
  const stop = () => {
    setQueue(null);
    setPosition(0);
  };
  if (!useMay('reminders.send')) return null;
  return (
    <>
      <button
        type="button"
        className="btn btn-outline-primary btn-sm"
        onClick={() => {
          setQueue([...clients]);
          setPosition(0);
        }}
      >
        {t('collect.remind.selected')}
      </button>
      {queue && current ? (
        <RemindDialog
          key={current.id}
          client={current}
          onClose={stop}
          sequence={{
            position: position + 1,
            total: queue.length,
            onNext: () => {
              if (position + 1 < queue.length) setPosition(position + 1);
              else {
                stop();
                onDone();
              }
            },
            onStop: stop,
          }}
        />
      ) : null}
    </>
  );
}
