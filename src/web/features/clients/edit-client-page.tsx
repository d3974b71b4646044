import { useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import type { Client } from '../../../shared/client-schema.ts';
import { paths } from '../../../shared/paths.ts';
import { useFlash } from '../../components/flash-messages.tsx';
import { PageCard } from '../../components/page-card.tsx';
import { RequireMay } from '../../components/require-may.tsx';
import { WithSettings } from '../../components/with-settings.tsx';
import { translate, useT } from '../../i18n/translate.tsx';
import { failureText, messages } from '../../lib/messages.ts';
import { ClientForm, type ClientFormOutput, type ClientFormValues } from './client-form.tsx';
import { useUpdateClient } from './clients-api.ts';
import { conflictingClient } from './conflict.ts';
import { ConflictResolver } from './conflict-resolver.tsx';
import { WithClient } from './with-client.tsx';

function formValues(client: Client): ClientFormValues {
  const { fname, lname, email, phoneDisplay, balance, language } = client;
  return { fname, lname, email, phone: phoneDisplay, balance, language };
}

export function EditClientPage() {
  const { id = '' } = useParams();
  return (
    <RequireMay action="clients.edit">
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
    </RequireMay>
  );
}

function EditClientCard({ client, balanceDisabled }: { client: Client; balanceDisabled: boolean }) {
  const t = useT();
  const updateClient = useUpdateClient(client.id);
  const flash = useFlash();
  const navigate = useNavigate();
  const [resetTo, setResetTo] = useState<ClientFormValues | null>(null);
  // The client as the form opened it: a save based on its version is refused if someone
  // changed the client since, never silently overwriting.
  const [base, setBase] = useState(client);
  const [initialValues] = useState(() => formValues(client));
  const [conflict, setConflict] = useState<{ mine: ClientFormOutput; current: Client } | null>(
    null,
  );

  async function save(values: ClientFormOutput, version = base.version) {
    const { balance, ...rest } = values;
    try {
      await updateClient.mutateAsync({
        ...rest,
        ...(balanceDisabled || balance === undefined ? {} : { balance }),
        version,
      });
    } catch (error) {
      const current = conflictingClient(error);
      if (current) {
        // What the operator typed stays; the choice between it and the current data is theirs.
        setConflict({ mine: values, current });
        flash.failure(translate('clients.conflict'), messages.failureSeconds);
        return;
      }
      flash.failure(failureText(translate('clients.edit.failed'), error), messages.failureSeconds);
      throw error;
    }
    flash.success(translate(messages.clientEdited.id), messages.clientEdited.seconds);
    navigate(paths.clientDetails(client.id));
  }

  return (
    <PageCard
      title={t('clients.edit.title')}
      backTo={paths.clientDetails(client.id)}
      backLabel={t('clients.edit.back')}
    >
      {conflict ? (
        <ConflictResolver
          key={conflict.current.version}
          base={base}
          mine={conflict.mine}
          current={conflict.current}
          busy={updateClient.isPending}
          onSave={(merged) => {
            // A failure is already on screen (save shows it); nothing more to do with it here.
            save(merged, conflict.current.version).catch(() => undefined);
          }}
          onTakeCurrent={() => {
            setBase(conflict.current);
            setResetTo(formValues(conflict.current));
            setConflict(null);
          }}
        />
      ) : null}
      <ClientForm
        idPrefix="edit-client"
        label={t('clients.edit.title')}
        initialValues={initialValues}
        balanceDisabled={balanceDisabled}
        onSubmit={(values) => save(values, conflict?.current.version ?? base.version)}
        resetTo={resetTo}
        checkPhoneOnOpen={!client.phoneValid}
      />
    </PageCard>
  );
}
