import type { Client } from '../../../shared/client-schema.ts';

/** What the list and the client's page say beside a stored number that is not a real one. */
export const CHECK_PHONE_TEXT = 'check this number';

/**
 * A client's phone as people read it (formatted by the server), and, for a number stored
 * before the panel checked numbers fully that fails the check, words saying so: a reminder
 * would open a chat with nobody.
 */
export function ClientPhone({ client }: { client: Pick<Client, 'phoneDisplay' | 'phoneValid'> }) {
  return (
    <>
      {client.phoneDisplay}
      {client.phoneValid ? null : (
        <span className="badge text-bg-warning ms-2 text-wrap">{CHECK_PHONE_TEXT}</span>
      )}
    </>
  );
}
