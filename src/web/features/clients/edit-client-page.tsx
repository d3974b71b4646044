import { useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { CLIENT_CONFLICT_MESSAGE, type Client } from '../../../shared/client-schema.ts';
import { paths } from '../../../shared/paths.ts';
import { useFlash } from '../../components/flash-messages.tsx';
import { PageCard } from '../../components/page-card.tsx';
import { WithSettings } from '../../components/with-settings.tsx';
import { failureText, messages } from '../../lib/messages.ts';
import { ClientForm, type ClientFormOutput, type ClientFormValues } from './client-form.tsx';
import { useUpdateClient } from './clients-api.ts';
import { conflictingClient } from './conflict.ts';
import { WithClient } from './with-client.tsx';

function formValues(client: Client): ClientFormValues {
  const { fname, lname, email, phone, balance } = client;
  return { fname, lname, email, phone, balance };
}

export function EditClientPage() {
  const { id = '' } = useParams();
  return (
    <WithClient id={id}>
      {(client) => (
        <WithSettings>
          {(settings) => (
            <EditClientCard
              key={String(settings.disableBalanceOnEdit)}
              client={client}
              balanceDisabled={settings.disableBalanceOnEdit}
            />
          )}
        </WithSettings>
      )}
    </WithClient>
  );
}

function EditClientCard({ client, balanceDisabled }: { client: Client; balanceDisabled: boolean }) {
  const updateClient = useUpdateClient(client.id);
  const flash = useFlash();
  const navigate = useNavigate();
  const [resetTo, setResetTo] = useState<ClientFormValues | null>(null);
  // The version the form's data came from, fixed when the form opened: a save based on
  // it is refused if someone changed the client since, never silently overwriting.
  const [baseVersion, setBaseVersion] = useState(client.version);
  const [initialValues] = useState(() => formValues(client));

  async function save(values: ClientFormOutput) {
    const { balance, ...rest } = values;
    try {
      await updateClient.mutateAsync({
        ...rest,
        ...(balanceDisabled || balance === undefined ? {} : { balance }),
        version: baseVersion,
      });
    } catch (error) {
      const latest = conflictingClient(error);
      if (latest) {
        setBaseVersion(latest.version);
        setResetTo(formValues(latest));
        flash.failure(CLIENT_CONFLICT_MESSAGE, messages.failureSeconds);
        return;
      }
      flash.failure(failureText('The client was not saved', error), messages.failureSeconds);
      throw error;
    }
    flash.success(messages.clientEdited.text, messages.clientEdited.seconds);
    navigate(paths.clientDetails(client.id));
  }

  return (
    <PageCard title="Edit Client" backTo={paths.clientDetails(client.id)} backLabel="Back">
      <ClientForm
        idPrefix="edit-client"
        label="Edit Client"
        initialValues={initialValues}
        balanceDisabled={balanceDisabled}
        onSubmit={save}
        resetTo={resetTo}
      />
    </PageCard>
  );
}
