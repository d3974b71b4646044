import { useNavigate } from 'react-router';
import type { Client } from '../../../shared/client-schema.ts';
import { paths } from '../../../shared/paths.ts';
import { useFlash } from '../../components/flash-messages.tsx';
import { PageCard } from '../../components/page-card.tsx';
import { WithSettings } from '../../components/with-settings.tsx';
import { translate } from '../../i18n/translate.tsx';
import type { DetailsPageState } from '../../lib/details-page-state.ts';
import { failureText, messages } from '../../lib/messages.ts';
import { ClientForm, type ClientFormOutput } from './client-form.tsx';
import { useCreateClient } from './clients-api.ts';

const EMPTY_CLIENT = { fname: '', lname: '', email: '', phone: '', balance: '0' };

export function AddClientPage() {
  return (
    <WithSettings>
      {(settings) => (
        <AddClientCard
          key={String(settings.disableBalanceOnAdd)}
          balanceDisabled={settings.disableBalanceOnAdd}
        />
      )}
    </WithSettings>
  );
}

function AddClientCard({ balanceDisabled }: { balanceDisabled: boolean }) {
  const createClient = useCreateClient();
  const flash = useFlash();
  const navigate = useNavigate();

  async function save(values: ClientFormOutput) {
    let client: Client;
    try {
      client = await createClient.mutateAsync({ ...values, balance: values.balance ?? '0.00' });
    } catch (error) {
      flash.failure(failureText('The client was not added', error), messages.failureSeconds);
      throw error;
    }
    flash.success(translate(messages.clientAdded.id), messages.clientAdded.seconds);
    if (balanceDisabled) {
      // What the client owes is entered as a charge on their page, which opens ready for it.
      const state: DetailsPageState = { entryForm: 'charge' };
      navigate(paths.clientDetails(client.id), { state });
    } else {
      navigate(paths.dashboard);
    }
  }

  return (
    <PageCard title="Add Client" backTo={paths.dashboard} backLabel="Back to Dashboard">
      <ClientForm
        idPrefix="add-client"
        label="Add Client"
        initialValues={EMPTY_CLIENT}
        balanceDisabled={balanceDisabled}
        lockedBalanceHelp="What the client owes is recorded on their page: saving opens it with “Add charge” ready."
        onSubmit={save}
      />
    </PageCard>
  );
}
