import { useState } from 'react';
import Button from 'react-bootstrap/Button';
import Table from 'react-bootstrap/Table';
import { Link } from 'react-router';
import { paths } from '../../../shared/paths.ts';
import { LoadFailed, Loading } from '../../components/loading.tsx';
import { Money } from '../../components/money.tsx';
import { useClientList } from './clients-api.ts';

export const CLIENTS_PAGE_SIZE = 50;

/** The client table of the original, paged from the server, with the total over every client. */
export function ClientsList() {
  const [offset, setOffset] = useState(0);
  const list = useClientList({ limit: CLIENTS_PAGE_SIZE, offset });

  if (list.isPending) return <Loading />;
  if (list.isError && !list.data) {
    return <LoadFailed what="the clients" error={list.error} onRetry={() => list.refetch()} />;
  }
  const { items, total, totalOwed } = list.data;
  // A page emptied by deletes elsewhere steps back to the last page that has clients.
  if (items.length === 0 && offset > 0 && total > 0) {
    setOffset(Math.max(0, Math.floor((total - 1) / CLIENTS_PAGE_SIZE) * CLIENTS_PAGE_SIZE));
  }
  const firstShown = total === 0 ? 0 : offset + 1;
  const lastShown = offset + items.length;

  return (
    <section aria-labelledby="clients-heading">
      <div className="d-flex flex-wrap justify-content-between align-items-baseline mb-3">
        <h1 id="clients-heading" className="h2">
          Clients
        </h1>
        <p className="h5 text-secondary mb-0" data-testid="total-owed">
          Total Owed : <Money amount={totalOwed} className="text-body fw-semibold" />
        </p>
      </div>
      {list.isError ? (
        <LoadFailed what="the latest clients" error={list.error} onRetry={() => list.refetch()} />
      ) : null}
      {total === 0 ? (
        <p className="text-muted">No users found</p>
      ) : (
        <>
          <Table striped hover responsive aria-label="Clients">
            <thead className="table-dark">
              <tr>
                <th scope="col">First Name</th>
                <th scope="col">Last Name</th>
                <th scope="col">Phone</th>
                <th scope="col">Email</th>
                <th scope="col">Balance</th>
                <th scope="col">
                  <span className="visually-hidden">Details</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {items.map((client) => (
                <tr key={client.id}>
                  <td>{client.fname}</td>
                  <td>{client.lname}</td>
                  <td>{client.phone}</td>
                  <td>{client.email}</td>
                  <td>
                    <Money amount={client.balance} />
                  </td>
                  <td>
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
          {total > CLIENTS_PAGE_SIZE ? (
            <nav className="d-flex align-items-center gap-3" aria-label="Client pages">
              <Button
                variant="outline-secondary"
                size="sm"
                disabled={offset === 0}
                onClick={() => setOffset(Math.max(0, offset - CLIENTS_PAGE_SIZE))}
              >
                Previous
              </Button>
              <span>
                {firstShown}–{lastShown} of {total}
              </span>
              <Button
                variant="outline-secondary"
                size="sm"
                disabled={lastShown >= total}
                onClick={() => setOffset(offset + CLIENTS_PAGE_SIZE)}
              >
                Next
              </Button>
            </nav>
          ) : null}
        </>
      )}
    </section>
  );
}
