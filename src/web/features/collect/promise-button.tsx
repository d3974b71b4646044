import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import type { Client } from '../../../shared/client-schema.ts';
import { lazyDialog } from '../../components/lazy-dialog.tsx';
import { useT } from '../../i18n/translate.tsx';
import { useMay } from '../../lib/books.ts';

// The dialog (the form and the modal code under it) loads when a promise is first recorded.
const PromiseDialog = lazyDialog(
  'promise',
  () => import('./promise-dialog.tsx').then((m) => m.PromiseDialog),
  'collect.dialog.promise',
);

/** "Promise" for one client: records what they promised to pay, and by when. */
export function PromiseButton({ client, size }: { client: Client; size?: 'sm' }) {
  const t = useT();
  const [open, setOpen] = useState(false);
  if (!useMay('promises.record')) return null;
  return (
    <>
      <Button
        variant="outline-secondary"
        size={size}
        aria-label={t('collect.promise.from', { name: `${client.fname} ${client.lname}` })}
        onClick={() => setOpen(true)}
      >
        {t('collect.promise.button')}
      </Button>
      {open ? <PromiseDialog client={client} onClose={() => setOpen(false)} /> : null}
    </>
  );
}
