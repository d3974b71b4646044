import Button from 'react-bootstrap/Button';
import Card from 'react-bootstrap/Card';
import Table from 'react-bootstrap/Table';
import type { OperatorSummary } from '../../../shared/operator-schema.ts';
import { useFlash } from '../../components/flash-messages.tsx';
import { LoadFailed, Loading } from '../../components/loading.tsx';
import { failureText, messages } from '../../lib/messages.ts';
import { useChangeRole, useOperators } from './operators-api.ts';

/** The administrator's list of operators, where the administrator role is given or taken. */
export function OperatorsPanel({ currentOperatorId }: { currentOperatorId: string }) {
  const operators = useOperators(true);
  const changeRole = useChangeRole();
  const flash = useFlash();

  async function change(operator: OperatorSummary, role: OperatorSummary['role']) {
    try {
      await changeRole.mutateAsync({ id: operator.id, role });
      flash.success(
        role === 'admin'
          ? `${operator.email} is now an administrator`
          : `${operator.email} is no longer an administrator`,
        messages.settingsSaved.seconds,
      );
    } catch (error) {
      flash.failure(failureText('The role was not changed', error), messages.failureSeconds);
    }
  }

  return (
    <Card className="mt-4">
      <Card.Header as="h2" className="h5">
        Operators
      </Card.Header>
      <Card.Body>
        <p className="text-body-secondary">
          Administrators change the panel&apos;s settings and who else is an administrator.
        </p>
        {operators.isPending ? <Loading /> : null}
        {operators.isError ? (
          <LoadFailed
            what="the operators"
            error={operators.error}
            onRetry={() => operators.refetch()}
          />
        ) : null}
        {operators.data ? (
          <Table responsive aria-label="Operators" className="mb-0">
            <thead>
              <tr>
                <th scope="col">Email</th>
                <th scope="col">Role</th>
                <th scope="col">
                  <span className="visually-hidden">Change</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {operators.data.items.map((operator) => (
                <tr key={operator.id}>
                  <td>
                    {operator.email}
                    {operator.id === currentOperatorId ? ' (you)' : ''}
                  </td>
                  <td>{operator.role === 'admin' ? 'Administrator' : 'Operator'}</td>
                  <td className="text-end">
                    {operator.role === 'admin' ? (
                      <Button
                        size="sm"
                        variant="outline-secondary"
                        disabled={changeRole.isPending}
                        onClick={() => void change(operator, 'operator')}
                        aria-label={`Remove administrator role from ${operator.email}`}
                      >
                        Remove administrator
                      </Button>
                    ) : (
                      <Button
                        size="sm"
                        variant="outline-primary"
                        disabled={changeRole.isPending}
                        onClick={() => void change(operator, 'admin')}
                        aria-label={`Make ${operator.email} an administrator`}
                      >
                        Make administrator
                      </Button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </Table>
        ) : null}
      </Card.Body>
    </Card>
  );
}
