import type { ReactNode } from 'react';
import { Link, useNavigate } from 'react-router';
import type { Client, ClientSortField } from '../../../shared/client-schema.ts';
import { paths } from '../../../shared/paths.ts';
import { EmailAddress } from '../../components/email-address.tsx';
import { Balance } from '../../components/money.tsx';
import { OverdueAmount } from '../../components/overdue.tsx';
import type { MessageId } from '../../i18n/catalogues.ts';
import { T, translate, useT } from '../../i18n/translate.tsx';
import { formatDay } from '../../lib/dates.ts';
import { ClientPhone } from './client-phone.tsx';
import type { RowSelection } from './row-selection.ts';

interface Sorting {
  sort: ClientSortField;
  dir: 'asc' | 'desc';
  onSort(sort: ClientSortField): void;
}

/** The sortable columns, in the table's order (and the phone's "Sort by", which has no table). */
export const COLUMNS: { field: ClientSortField; label: MessageId; money?: boolean }[] = [
  { field: 'fname', label: 'clients.field.fname' },
  { field: 'lname', label: 'clients.field.lname' },
  { field: 'phone', label: 'clients.field.phone' },
  { field: 'email', label: 'clients.field.email' },
  { field: 'balance', label: 'clients.field.balance', money: true },
  { field: 'overdue', label: 'clients.column.overdue', money: true },
  { field: 'lastPaymentOn', label: 'clients.column.lastPayment' },
  { field: 'lastRemindedOn', label: 'clients.column.lastReminded' },
];

/** A day of the client's, or "never", in the chosen language (call it while drawing). */
export function dayOrNever(on: string | null): string {
  return on ? formatDay(on) : translate('clients.never');
}

/** "2 reported payments" waiting to be checked, beside the client's name. */
function ClaimsBadge({ client }: { client: Client }) {
  const t = useT();
  if (client.pendingClaims === 0) return null;
  return (
    <span className="badge text-bg-warning ms-2 text-wrap text-start">
      {t('clients.claims', { count: client.pendingClaims })}
    </span>
  );
}

function SortHeader({
  field,
  label,
  money,
  sorting,
}: {
  field: ClientSortField;
  label: MessageId;
  money?: boolean | undefined;
  sorting: Sorting;
}) {
  const t = useT();
  const active = sorting.sort === field;
  const direction = active ? (sorting.dir === 'asc' ? 'ascending' : 'descending') : 'none';
  const arrow = active ? (sorting.dir === 'asc' ? '▲' : '▼') : '';
  return (
    <th scope="col" aria-sort={direction} className={money ? 'money-column' : undefined}>
      <button type="button" className="sort-button" onClick={() => sorting.onSort(field)}>
        {t(label)}
        <span aria-hidden="true" className="ms-1">
          {arrow}
        </span>
      </button>
    </th>
  );
}

/** Picks every row of the page; shows "some" (indeterminate) while only some are picked. */
function SelectAll({ items, selection }: { items: Client[]; selection: RowSelection }) {
  const t = useT();
  const count = selection.selected.length;
  return (
    <input
      type="checkbox"
      className="form-check-input"
      aria-label={t('clients.table.selectAll')}
      checked={count > 0 && count === items.length}
      ref={(box) => {
        if (box) box.indeterminate = count > 0 && count < items.length;
      }}
      onChange={selection.toggleAll}
    />
  );
}

/**
 * The client table of the original (wide screens): every column sorts, the whole row opens
 * the client, the name is a link for the keyboard, and the Details button stays. A checkbox
 * in front picks the row for what is done to several at once.
 */
export function ClientsTable({
  items,
  sorting,
  selection,
  rowAction,
}: {
  items: Client[];
  sorting: Sorting;
  /** Absent when nothing can be done with picked rows (the member's role allows none of it). */
  selection: RowSelection | undefined;
  rowAction?: ((client: Client) => ReactNode) | undefined;
}) {
  const t = useT();
  const navigate = useNavigate();
  // Bootstrap's classes, not react-bootstrap's Table: the dashboard's first load is budgeted.
  // Scrolled within its column when wider than it, never drawn past it: past it, the table lay
  // under the dashboard's sidebar, which took the clicks meant for Details and Remind (1280 px).
  return (
    <div className="table-responsive d-none d-md-block">
      <table
        aria-label={t('clients.title')}
        className="table table-striped table-hover align-middle clients-table"
      >
        <thead className="table-dark">
          <tr>
            {selection ? (
              <th scope="col" className="select-cell">
                <SelectAll items={items} selection={selection} />
              </th>
            ) : null}
            {COLUMNS.map((column) => (
              <SortHeader key={column.field} {...column} sorting={sorting} />
            ))}
            <th scope="col">
              <span className="visually-hidden">{t('clients.column.details')}</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {items.map((client) => (
            <tr
              key={client.id}
              className="client-row"
              onClick={(event) => {
                // A click on a link or button inside the row does its own thing; one beside
                // the checkbox is a missed pick, not a wish to leave the page.
                if ((event.target as HTMLElement).closest('a, button, .select-cell')) return;
                navigate(paths.clientDetails(client.id));
              }}
            >
              {selection ? (
                <td className="select-cell">
                  <input
                    type="checkbox"
                    className="form-check-input"
                    aria-label={t('clients.table.select', {
                      name: `${client.fname} ${client.lname}`,
                    })}
                    checked={selection.isSelected(client.id)}
                    onChange={() => selection.toggle(client.id)}
                  />
                </td>
              ) : null}
              <td className="client-name">
                <Link to={paths.clientDetails(client.id)} className="link-body-emphasis">
                  {client.fname}
                </Link>
                <ClaimsBadge client={client} />
              </td>
              <td className="client-name">{client.lname}</td>
              <td>
                <ClientPhone client={client} />
              </td>
              <td>
                <EmailAddress email={client.email} />
              </td>
              <td className="money-column">
                <Balance amount={client.balance} />
              </td>
              <td className="money-column text-wrap">
                <OverdueAmount client={client} />
              </td>
              <td>{dayOrNever(client.lastPaymentOn)}</td>
              <td>{dayOrNever(client.lastRemindedOn)}</td>
              {/* Beside the dashboard's column of totals the buttons stack rather than push the
                  table past its column (a sideways scroll at 1280 px). */}
              <td className="text-end">
                {rowAction ? (
                  <span className="d-inline-block me-1 mb-1">{rowAction(client)}</span>
                ) : null}
                <Link
                  to={paths.clientDetails(client.id)}
                  className="btn btn-secondary btn-sm"
                  aria-label={t('clients.table.details', {
                    name: `${client.fname} ${client.lname}`,
                  })}
                >
                  {t('clients.column.details')}
                </Link>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The same clients on a phone: one card each (name, phone, last payment, balance). */
export function ClientCards({
  items,
  rowAction,
}: {
  items: Client[];
  rowAction?: ((client: Client) => ReactNode) | undefined;
}) {
  const t = useT();
  return (
    <ul className="list-group d-md-none mb-3" aria-label={t('clients.title')}>
      {items.map((client) => (
        <li key={client.id} className="list-group-item p-0 d-flex align-items-center">
          <Link
            to={paths.clientDetails(client.id)}
            className="flex-grow-1 min-w-0 d-flex flex-wrap justify-content-between align-items-center gap-2 p-3 text-reset text-decoration-none"
          >
            <span className="client-card-details">
              {/* Wraps, never cut: a long name, and the reported payments to check, stay seen. */}
              <span className="d-block fw-semibold text-break">
                {client.fname} {client.lname}
                <ClaimsBadge client={client} />
              </span>
              <span className="d-block small text-body-secondary">
                <ClientPhone client={client} />
              </span>
              <span className="d-block small text-body-secondary">
                {t('clients.card.lastPayment', { date: dayOrNever(client.lastPaymentOn) })}
              </span>
              <span className="d-block small text-body-secondary">
                {t('clients.card.lastReminded', { date: dayOrNever(client.lastRemindedOn) })}
              </span>
              {client.overdueSince ? (
                <span className="d-block small">
                  <T
                    id="clients.card.overdue"
                    components={{ 0: <OverdueAmount client={client} /> }}
                  />
                </span>
              ) : null}
            </span>
            <Balance amount={client.balance} className="client-card-balance fw-semibold" />
          </Link>
          {rowAction ? <span className="pe-3">{rowAction(client)}</span> : null}
        </li>
      ))}
    </ul>
  );
}
