import type { Client } from '../../shared/client-schema.ts';
import type { Entry } from '../../shared/ledger-schema.ts';
import type { Activity } from './activity-repository.ts';

/** The English lines of the activity log (the API's `summary`); the web app words its own. */
export function clientName(client: { fname: string; lname: string }): string {
  return `${client.fname} ${client.lname}`.trim();
}

export function entryActivity(entry: Entry, client: Client): Activity {
  const payment = entry.kind === 'payment';
  const amount = entry.amount.replace(/^-/, '');
  return {
    action: payment ? 'entry.payment' : 'entry.charge',
    clientId: client.id,
    summary: payment
      ? `Recorded a payment of ₹${amount} from ${clientName(client)}`
      : `Recorded a charge of ₹${amount} to ${clientName(client)}`,
    details: { amount },
  };
}
