import { Link } from 'react-router';
import type { ActivityAction, ActivityDetails, ActivityItem } from '../../../shared/book-schema.ts';
import { formatInr, paiseFromAmount } from '../../../shared/money.ts';
import { paths } from '../../../shared/paths.ts';
import { LoadFailed } from '../../components/loading.tsx';
import { balanceText } from '../../components/money.tsx';
import type { MessageId } from '../../i18n/catalogues.ts';
import { errorText } from '../../i18n/errors.ts';
import { T, translate, useT } from '../../i18n/translate.tsx';
import { formatTime } from '../../lib/dates.ts';
import { type ActivityFilter, useActivity } from './members-api.ts';
import { ROLE_NAMES } from './role-names.ts';

/** Each thing done, in the reader's words (the answer's `summary` is English, for API users). */
const ACTION_TEXT: Record<ActivityAction, MessageId> = {
  'client.created': 'books.activity.client.created',
  'client.updated': 'books.activity.client.updated',
  'client.deleted': 'books.activity.client.deleted',
  'client.restored': 'books.activity.client.restored',
  'clients.imported': 'books.activity.clients.imported',
  'balance.edited': 'books.activity.balance.edited',
  'entry.payment': 'books.activity.entry.payment',
  'entry.charge': 'books.activity.entry.charge',
  'reminder.sent': 'books.activity.reminder.sent',
  'link.created': 'books.activity.link.created',
  'link.revoked': 'books.activity.link.revoked',
  'claim.confirmed': 'books.activity.claim.confirmed',
  'claim.dismissed': 'books.activity.claim.dismissed',
  'promise.created': 'books.activity.promise.created',
  'collection-settings.updated': 'books.activity.collection-settings.updated',
  'invite.created': 'books.activity.invite.created',
  'member.joined': 'books.activity.member.joined',
  'member.role-changed': 'books.activity.member.role-changed',
  'member.removed': 'books.activity.member.removed',
  'member.left': 'books.activity.member.left',
  'book.handed-over': 'books.activity.book.handed-over',
};

/**
 * The client an item is about, by name, as a link to their page; one purged since (the answer
 * has no name for it, and no page to link to) is "a client".
 */
function ClientName({ item }: { item: ActivityItem }) {
  const t = useT();
  if (!item.clientId || item.clientName === null) return <>{t('books.activity.someClient')}</>;
  return <Link to={paths.clientDetails(item.clientId)}>{item.clientName}</Link>;
}

/**
 * The same, with what the line was about (`details`): which fields each needs. A line written
 * before details were kept, or without them, reads as above.
 */
const DETAILED_TEXT: Partial<
  Record<ActivityAction, { id: MessageId; needs: (keyof ActivityDetails)[] }>
> = {
  'entry.payment': { id: 'books.activity.detailed.entry.payment', needs: ['amount'] },
  'entry.charge': { id: 'books.activity.detailed.entry.charge', needs: ['amount'] },
  'balance.edited': { id: 'books.activity.detailed.balance.edited', needs: ['amount'] },
  'claim.confirmed': { id: 'books.activity.detailed.claim.confirmed', needs: ['amount'] },
  'claim.dismissed': { id: 'books.activity.detailed.claim.dismissed', needs: ['amount'] },
  'promise.created': { id: 'books.activity.detailed.promise.created', needs: ['amount'] },
  'invite.created': { id: 'books.activity.detailed.invite.created', needs: ['role'] },
  'member.role-changed': {
    id: 'books.activity.detailed.member.role-changed',
    needs: ['member', 'role'],
  },
  'member.removed': { id: 'books.activity.detailed.member.removed', needs: ['member'] },
  'book.handed-over': { id: 'books.activity.detailed.book.handed-over', needs: ['member'] },
  'clients.imported': { id: 'books.activity.detailed.clients.imported', needs: ['count'] },
};

/** The words of a line, and the values they need (amounts and roles as the reader reads them). */
function wordsOf(item: ActivityItem): { id: MessageId; values: Record<string, string | number> } {
  const detailed = DETAILED_TEXT[item.action];
  const details = item.details;
  if (!detailed || !details || detailed.needs.some((field) => details[field] === undefined)) {
    return { id: ACTION_TEXT[item.action], values: { actor: item.actor.email } };
  }
  const values: Record<string, string | number> = { actor: item.actor.email };
  if (details.amount !== undefined) {
    values.amount =
      item.action === 'balance.edited'
        ? balanceText(details.amount)
        : formatInr(paiseFromAmount(details.amount));
  }
  if (details.member !== undefined) values.member = details.member;
  if (details.role !== undefined) values.role = translate(ROLE_NAMES[details.role]);
  if (details.count !== undefined) values.count = details.count;
  return { id: detailed.id, values };
}

function Item({ item }: { item: ActivityItem }) {
  const { id, values } = wordsOf(item);
  return (
    <li className="list-group-item">
      <div>
        <T id={id} values={values} components={{ 0: <ClientName item={item} /> }} />
      </div>
      <div className="small text-body-secondary">
        <time dateTime={item.at}>{formatTime(item.at)}</time>
      </div>
    </li>
  );
}

/** What the book's members did, newest first, a page at a time. */
export function ActivityList({ filter }: { filter: ActivityFilter }) {
  const t = useT();
  const activity = useActivity(filter);
  if (activity.isError && !activity.data) {
    return (
      <LoadFailed
        what={t('books.activity.loadWhat')}
        error={activity.error}
        onRetry={() => activity.refetch()}
      />
    );
  }
  if (!activity.data) return <p className="text-body-secondary">{t('shell.loading')}</p>;
  const items = activity.data.pages.flatMap((page) => page.items);
  if (items.length === 0) return <p className="text-body-secondary">{t('books.activity.empty')}</p>;
  return (
    <>
      <ul className="list-group mb-2" aria-label={t('books.activity.title')}>
        {items.map((item) => (
          <Item key={item.id} item={item} />
        ))}
      </ul>
      {activity.hasNextPage ? (
        <button
          type="button"
          className="btn btn-outline-secondary btn-sm"
          disabled={activity.isFetchingNextPage}
          onClick={() => void activity.fetchNextPage()}
        >
          {t('books.activity.more')}
        </button>
      ) : null}
      {activity.isFetchNextPageError ? (
        <p role="alert" className="text-danger small mt-2">
          {t('shell.failure', {
            what: t('books.activity.loadMore'),
            why: errorText(activity.error),
          })}
        </p>
      ) : null}
    </>
  );
}
