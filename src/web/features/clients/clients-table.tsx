import type { ReactNode } from 'react';
import Table from 'react-bootstrap/Table';
import { Link, useNavigate } from 'react-router';
import type { Client, ClientSortField } from '../../../shared/client-schema.ts';
import { paths } from '../../../shared/paths.ts';
import { Balance } from '../../components/money.tsx';
import { OverdueAmount } from '../../components/overdue.tsx';
import { formatDay } from '../../lib/dates.ts';
import { ClientPhone } from './client-phone.tsx';
import type { RowSelection } from './row-selection.ts';

interface Sorting {
  sort: ClientSortField;
  dir: 'asc' | 'desc';
  onSort(sort: ClientSortField): void;
}

const COLUMNS: { field: ClientSortField; label: string; money?: boolean }[] = [
  { field: 'fname', label: 'First Name' },
  { field: 'lname', label: 'Last Name' },
  { field: 'phone', label: 'Phone' },
  { field: 'email', label: 'Email' },
  { field: 'balance', label: 'Balance', money: true },
  { field: 'overdue', label: 'Overdue', money: true },
  { field: 'lastPaymentOn', label: 'Last payment' },
  { field: 'lastRemindedOn', label: 'Last reminded' },
];

function lastPaymentText(client: Client): string {
  return client.lastPaymentOn ? formatDay(client.lastPaymentOn) : 'never';
}

function lastRemindedText(client: Client): string {
  return client.lastRemindedOn ? formatDay(client.lastRemindedOn) : 'never';
}

/** "2 reported payments" waiting to be checked, beside the client's name. */
function ClaimsBadge({ client }: { client: Client }) {
  if (client.pendingClaims === 0) return null;
  const n = client.pendingClaims;
  return (
    <span className="badge text-bg-warning ms-2">
      {n} reported {n === 1 ? 'payment' : 'payments'}
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
  label: string;
  money?: boolean | undefined;
  sorting: Sorting;
}) {
  const active = sorting.sort === field;
  const direction = active ? (sorting.dir === 'asc' ? 'ascending' : 'descending') : 'none';
  const arrow = active ? (sorting.dir === 'asc' ? '▲' : '▼') : '';
  return (
    <th scope="col" aria-sort={direction} className={money ? 'money-column' : undefined}>
      <button type="button" className="sort-button" onClick={() => sorting.onSort(field)}>
        {label}
        <span aria-hidden="true" className="ms-1">
          {arrow}
        </span>
      </button>
    </th>
  );
}

/** Picks every row of the page; shows "some" (indeterminate) while only some are picked. */
function SelectAll({ items, selection }: { items: Client[]; selection: RowSelection }) {
  const count = selection.selected.length;
  return (
    <input
      type="checkbox"
      className="form-check-input"
      aria-label="Select all on this page"
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
  selection: RowSelection;
  rowAction?: ((client: Client) => ReactNode) | undefined;
}) {
  const navigate = useNavigate();
  return (
    <Table striped hover aria-label="Clients" className="d-none d-md-table align-middle">
      <thead className="table-dark">
        <tr>
          <th scope="col" className="select-cell">
            <SelectAll items={items} selection={selection} />
          </th>
          {COLUMNS.map((column) => (
            <SortHeader key={column.field} {...column} sorting={sorting} />
          ))}
          <th scope="col">
            <span className="visually-hidden">Details</span>
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
            <td className="select-cell">
              <input
                type="checkbox"
                className="form-check-input"
                aria-label={`Select ${client.fname} ${client.lname}`}
                checked={selection.isSelected(client.id)}
                onChange={() => selection.toggle(client.id)}
              />
            </td>
            <td>
              <Link to={paths.clientDetails(client.id)} className="link-body-emphasis">
                {client.fname}
              </Link>
              <ClaimsBadge client={client} />
            </td>
            <td>{client.lname}</td>
            <td className="text-nowrap">
              <ClientPhone client={client} />
            </td>
            <td className="text-break">{client.email}</td>
            <td className="money-column">
              <Balance amount={client.balance} />
            </td>
            <td className="money-column text-nowrap">
              <OverdueAmount client={client} />
            </td>
            <td className="text-nowrap">{lastPaymentText(client)}</td>
            <td className="text-nowrap">{lastRemindedText(client)}</td>
            <td className="text-end text-nowrap">
              {rowAction ? <span className="me-2">{rowAction(client)}</span> : null}
              <Link
                to={paths.clientDetails(client.id)}
                className="btn btn-secondary btn-sm"
                aria-label={`Details of ${client.fname} ${client.lname}`}
              >
                Details
              </Link>
            </td>
          </tr>
        ))}
      </tbody>
    </Table>
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
  return (
    <ul className="list-group d-md-none mb-3" aria-label="Clients">
      {items.map((client) => (
        <li key={client.id} className="list-group-item p-0 d-flex align-items-center">
          <Link
            to={paths.clientDetails(client.id)}
            className="flex-grow-1 min-w-0 d-flex justify-content-between align-items-center gap-2 p-3 text-reset text-decoration-none"
          >
            <span className="min-w-0">
              <span className="d-block fw-semibold text-truncate">
                {client.fname} {client.lname}
                <ClaimsBadge client={client} />
              </span>
              <span className="d-block small text-body-secondary">
                <ClientPhone client={client} />
              </span>
              <span className="d-block small text-body-secondary">
                Last payment: {lastPaymentText(client)}
              </span>
              <span className="d-block small text-body-secondary">
                Last reminded: {lastRemindedText(client)}
              </span>
              {client.overdueSince ? (
                <span className="d-block small">
                  Overdue: <OverdueAmount client={client} />
                </span>
              ) : null}
            </span>
            <Balance amount={client.balance} className="money-column fw-semibold" />
          </Link>
          {rowAction ? <span className="pe-3">{rowAction(client)}</span> : null}
        </li>
      ))}
    </ul>
  );
}
