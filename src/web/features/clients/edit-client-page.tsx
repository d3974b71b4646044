import { useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import type { Client } from '../../../shared/client-schema.ts';
import { paths } from '../../../shared/paths.ts';
import { useFlash } from '../../components/flash-messages.tsx';
import { LoadFailed, Loading } from '../../components/loading.tsx';
import { PageCard } from '../../components/page-card.tsx';
import { ApiError } from '../../lib/api-client.ts';
import { failureText, messages } from '../../lib/messages.ts';
import { useSettings } from '../../lib/settings-service.ts';
import { ClientForm, type ClientFormOutput, type ClientFormValues } from './client-form.tsx';
import { ClientNotFound } from './client-not-found.tsx';
import { useClient, useUpdateClient } from './clients-api.ts';
import { CONFLICT_MESSAGE, conflictingClient } from './conflict.ts';

function formValues(client: Client): ClientFormValues {
  const { fname, lname, email, phone, balance } = client;
  return { fname, lname, email, phone, balance };
}

export function EditClientPage() {
  const { id = '' } = useParams();
  const client = useClient(id);
  const settings = useSettings();

  if (client.isPending || (!settings.data && !settings.isError)) return <Loading />;
  if (client.isError) {
    if (client.error instanceof ApiError && client.error.status === 404) return <ClientNotFound />;
    return <LoadFailed what="the client" error={client.error} onRetry={() => client.refetch()} />;
  }
  if (client.data === null) return <ClientNotFound deletedElsewhere />;
  if (!settings.data) {
    return (
      <LoadFailed
        what="the settings"
        error={settings.error ?? new Error('unknown error')}
        onRetry={() => settings.refetch()}
      />
    );
  }
  return (
    <EditClientCard
      key={String(settings.data.disableBalanceOnEdit)}
      client={client.data}
      balanceDisabled={settings.data.disableBalanceOnEdit}
    />
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
        flash.failure(CONFLICT_MESSAGE, messages.failureSeconds);
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
