import { useParams } from 'react-router';
import { WithClient } from '../features/clients/with-client.tsx';
import { ClientStatement } from '../features/ledger/statement-page.tsx';

// The pages made to print share this chunk (routes.tsx): the ageing's is the ledger's own.
export { AgeingPrintPage } from '../features/ledger/ageing-print-page.tsx';

/** A client's statement: the client (or "Client not found"), then its ledger for a period. */
export function StatementPage() {
  const { id = '' } = useParams();
  return <WithClient id={id}>{(client) => <ClientStatement client={client} />}</WithClient>;
}
