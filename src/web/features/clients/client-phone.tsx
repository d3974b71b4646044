import type { Client } from '../../../shared/client-schema.ts';
import { useT } from '../../i18n/translate.tsx';

/**
 * A client's phone as people read it (formatted by the server), and, for a number stored
 * before the panel checked numbers fully that fails the check, words saying so ("check this
 * number"): a reminder would open a chat with nobody.
 */
export function ClientPhone({ client }: { client: Pick<Client, 'phoneDisplay' | 'phoneValid'> }) {
  const t = useT();
  return (
    <>
      {client.phoneDisplay}
      {client.phoneValid ? null : (
        <span className="badge text-bg-warning ms-2 text-wrap">{t('clients.phone.check')}</span>
      )}
    </>
  );
}
