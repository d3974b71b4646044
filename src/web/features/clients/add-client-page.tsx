import { useNavigate } from 'react-router';
import type { Client } from '../../../shared/client-schema.ts';
import { paths } from '../../../shared/paths.ts';
import { useFlash } from '../../components/flash-messages.tsx';
import { PageCard } from '../../components/page-card.tsx';
import { RequireMay } from '../../components/require-may.tsx';
import { WithSettings } from '../../components/with-settings.tsx';
import { translate, useT } from '../../i18n/translate.tsx';
import { useLanguage } from '../../i18n/use-language.ts';
import type { DetailsPageState } from '../../lib/details-page-state.ts';
import { failureText, messages } from '../../lib/messages.ts';
import { ClientForm, type ClientFormOutput } from './client-form.tsx';
import { useCreateClient } from './clients-api.ts';

export function AddClientPage() {
  return (
    <RequireMay action="clients.add">
      <WithSettings>
        {(settings) => (
          <AddClientCard
            key={String(settings.disableBalanceOnAdd)}
            balanceDisabled={settings.disableBalanceOnAdd}
          />
        )}
      </WithSettings>
    </RequireMay>
  );
}

function AddClientCard({ balanceDisabled }: { balanceDisabled: boolean }) {
  const t = useT();
  // A new client reads the operator's language until the operator chooses another.
  const language = useLanguage();
  const createClient = useCreateClient();
  const flash = useFlash();
  const navigate = useNavigate();

  async function save(values: ClientFormOutput) {
    let client: Client;
    try {
      client = await createClient.mutateAsync({ ...values, balance: values.balance ?? '0.00' });
    } catch (error) {
      flash.failure(failureText(translate('clients.add.failed'), error), messages.failureSeconds);
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
    <PageCard
      title={t('clients.add.title')}
      backTo={paths.dashboard}
      backLabel={t('shell.backToDashboard')}
    >
      <ClientForm
        idPrefix="add-client"
        label={t('clients.add.title')}
        initialValues={{ fname: '', lname: '', email: '', phone: '', balance: '0', language }}
        balanceDisabled={balanceDisabled}
        lockedBalanceHelp={t('clients.add.balanceOnPage')}
        onSubmit={save}
      />
    </PageCard>
  );
}
