import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import ListGroup from 'react-bootstrap/ListGroup';
import type { Claim } from '../../../shared/claim-schema.ts';
import type { Client } from '../../../shared/client-schema.ts';
import { formatInr, paiseFromAmount } from '../../../shared/money.ts';
import { useFlash } from '../../components/flash-messages.tsx';
import { LoadFailed } from '../../components/loading.tsx';
import { Money } from '../../components/money.tsx';
import type { MessageId } from '../../i18n/catalogues.ts';
import { translate, useT } from '../../i18n/translate.tsx';
import { useMay } from '../../lib/books.ts';
import { formatTime } from '../../lib/dates.ts';
import { failureText, messages } from '../../lib/messages.ts';
import { useClaims, useDecideClaim } from './collect-api.ts';

const STATUS_TEXT: Record<Claim['status'], MessageId> = {
  pending: 'collect.claims.status.pending',
  confirmed: 'collect.claims.status.confirmed',
  dismissed: 'collect.claims.status.dismissed',
};

/**
 * What confirming would leave in credit, when the claim is more than the client owes: a claim
 * is typed by the customer, and one extra zero books ten times the payment.
 */
function overpayment(claim: Claim, balance: string): { owed: bigint; credit: bigint } | null {
  const owing = paiseFromAmount(balance);
  const paid = paiseFromAmount(claim.amount);
  if (claim.status !== 'pending' || paid <= owing) return null;
  return { owed: owing > 0n ? owing : 0n, credit: paid - owing };
}

function ClaimItem({
  claim,
  clientId,
  balance,
}: {
  claim: Claim;
  clientId: string;
  /** The client's balance now. */
  balance: string;
}) {
  const t = useT();
  const over = overpayment(claim, balance);
  const decide = useDecideClaim(clientId);
  const mayDecide = useMay('claims.decide');
  const flash = useFlash();
  async function run(decision: 'confirm' | 'dismiss') {
    try {
      await decide.mutateAsync({ claimId: claim.id, decision });
      flash.success(
        decision === 'confirm'
          ? translate(messages.paymentRecorded.id)
          : translate('collect.claims.dismissed'),
        messages.paymentRecorded.seconds,
      );
    } catch (error) {
      flash.failure(
        failureText(translate('collect.claims.nothingChanged'), error),
        messages.failureSeconds,
      );
    }
  }
  return (
    <ListGroup.Item
      as="li"
      className="d-flex flex-wrap justify-content-between align-items-center gap-2"
    >
      <div>
        <div>
          <Money amount={claim.amount} className="fw-semibold" /> · {t('collect.claims.reference')}{' '}
          <span className="font-monospace">{claim.reference}</span>
        </div>
        {claim.note ? <div className="small">{claim.note}</div> : null}
        {over ? (
          <div className="small text-warning-emphasis">
            {t('collect.claims.overpays', {
              owed: formatInr(over.owed),
              credit: formatInr(over.credit),
            })}
          </div>
        ) : null}
        <div className="small text-body-secondary">
          {t('collect.claims.reported', { time: formatTime(claim.createdAt) })} ·{' '}
          {t(STATUS_TEXT[claim.status])}
        </div>
      </div>
      {claim.status === 'pending' && mayDecide ? (
        <div className="d-flex gap-2">
          <Button
            size="sm"
            variant="success"
            disabled={decide.isPending}
            aria-label={t('collect.claims.confirmLabel', { reference: claim.reference })}
            onClick={() => void run('confirm')}
          >
            {t('collect.claims.confirm')}
          </Button>
          <Button
            size="sm"
            variant="outline-secondary"
            disabled={decide.isPending}
            aria-label={t('collect.claims.dismissLabel', { reference: claim.reference })}
            onClick={() => void run('dismiss')}
          >
            {t('collect.claims.dismiss')}
          </Button>
        </div>
      ) : null}
    </ListGroup.Item>
  );
}

function ClaimList({ clientId, balance }: { clientId: string; balance: string }) {
  const t = useT();
  const claims = useClaims(clientId);
  if (claims.isError) {
    return (
      <LoadFailed
        what={t('collect.claims.loadWhat')}
        error={claims.error}
        onRetry={() => claims.refetch()}
      />
    );
  }
  if (!claims.data) return <p className="text-body-secondary">{t('collect.loading')}</p>;
  if (claims.data.items.length === 0) {
    return <p className="text-body-secondary">{t('collect.claims.none')}</p>;
  }
  return (
    <ListGroup as="ul" aria-label={t('collect.claims.title')}>
      {claims.data.items.map((claim) => (
        <ClaimItem key={claim.id} claim={claim} clientId={clientId} balance={balance} />
      ))}
    </ListGroup>
  );
}

/**
 * "I have paid" from the client's statement link: the operator confirms a claim (a payment
 * is booked) or dismisses it; a claim alone changes no balance. Read when the client has
 * pending claims (the live claim.created brings the count), else when asked for: most
 * clients have none, and their page asks nothing more.
 */
export function ClaimsPanel({ client }: { client: Client }) {
  const t = useT();
  const pending = client.pendingClaims;
  // Once shown, the list stays (a confirmed claim shows as confirmed, not gone).
  const [shown, setShown] = useState(pending > 0);
  if (pending > 0 && !shown) setShown(true);
  return (
    <section aria-labelledby="claims-heading" className="mt-4">
      <h2 id="claims-heading" className="h4">
        {t('collect.claims.title')}{' '}
        {pending > 0 ? (
          <span className="badge text-bg-warning align-middle">
            {t('collect.claims.toCheck', { count: pending })}
          </span>
        ) : null}
      </h2>
      {shown ? (
        <ClaimList clientId={client.id} balance={client.balance} />
      ) : (
        <Button variant="link" className="ps-0" onClick={() => setShown(true)}>
          {t('collect.claims.show')}
        </Button>
      )}
    </section>
  );
}
