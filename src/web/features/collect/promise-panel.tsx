import ListGroup from 'react-bootstrap/ListGroup';
import type { Client } from '../../../shared/client-schema.ts';
import type { PromiseToPay } from '../../../shared/dues-schema.ts';
import { formatInr, paiseFromAmount } from '../../../shared/money.ts';
import { LoadFailed } from '../../components/loading.tsx';
import { useT } from '../../i18n/translate.tsx';
import { formatTime } from '../../lib/dates.ts';
import { usePromises } from './dues-api.ts';
import { PromiseButton } from './promise-button.tsx';
import { PromiseStatusBadge, promisedText, promiseValues } from './promise-text.tsx';

function HistoryItem({ promise }: { promise: PromiseToPay }) {
  const t = useT();
  const paid = paiseFromAmount(promise.paid);
  return (
    <ListGroup.Item as="li">
      <div className="d-flex flex-wrap gap-2 align-items-baseline">
        <span>{t('collect.promise.amountBy', promiseValues(promise))}</span>
        <PromiseStatusBadge status={promise.status} />
        {paid > 0n && promise.status !== 'kept' ? (
          <span className="small">
            {t('collect.promise.paidTowards', { paid: formatInr(paid) })}
          </span>
        ) : null}
      </div>
      {promise.note ? <div className="small">{promise.note}</div> : null}
      <div className="small text-body-secondary">
        {t('collect.promise.made', {
          time: formatTime(promise.createdAt),
          email: promise.createdBy.email,
        })}
      </div>
    </ListGroup.Item>
  );
}

/** How many of the promises to show under the current one: the recent ones tell the story. */
const HISTORY_SHOWN = 5;

/**
 * A client's promise to pay on their page: the current one (open, or broken once its day
 * passed) with its note, the record ("kept 3 of 4 promises"), the last few, and "Promise".
 */
export function PromisePanel({ client }: { client: Client }) {
  const t = useT();
  const promises = usePromises(client.id);
  const current = client.promise;
  const note = current ? promises.data?.items.find((p) => p.id === current.id)?.note : undefined;
  const record = promises.data;
  return (
    <section aria-labelledby="promises-heading" className="mt-4">
      <div className="d-flex flex-wrap justify-content-between align-items-baseline gap-2 mb-2">
        <h2 id="promises-heading" className="h4 mb-0">
          {t('collect.promise.panelTitle')}
        </h2>
        <PromiseButton client={client} size="sm" />
      </div>
      {current ? (
        <div
          className={`alert ${current.status === 'broken' ? 'alert-danger' : 'alert-info'} mb-2`}
        >
          <div className="d-flex flex-wrap gap-2 align-items-baseline">
            <strong>{promisedText(current)}</strong>
            <PromiseStatusBadge status={current.status} />
          </div>
          {current.status === 'broken' ? (
            <div className="small">{t('collect.promise.brokenNote')}</div>
          ) : null}
          {note ? <div className="small">{note}</div> : null}
        </div>
      ) : (
        <p className="text-body-secondary mb-2">{t('collect.promise.noneOpen')}</p>
      )}
      {promises.isError ? (
        <LoadFailed
          what={t('collect.promise.loadWhat')}
          error={promises.error}
          onRetry={() => promises.refetch()}
        />
      ) : record ? (
        <>
          <p className="mb-2">
            {record.decided > 0
              ? t('collect.promise.record', { kept: record.kept, decided: record.decided })
              : t('collect.promise.noneDue')}
          </p>
          {record.items.length > 0 ? (
            <ListGroup as="ul" aria-label={t('collect.promise.list')}>
              {record.items.slice(0, HISTORY_SHOWN).map((promise) => (
                <HistoryItem key={promise.id} promise={promise} />
              ))}
            </ListGroup>
          ) : null}
        </>
      ) : (
        <p className="text-body-secondary">{t('collect.loading')}</p>
      )}
    </section>
  );
}
