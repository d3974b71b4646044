import { useNavigate } from 'react-router';
import { paths } from '../../../shared/paths.ts';
import { useFlash } from '../../components/flash-messages.tsx';
import { LoadFailed, Loading } from '../../components/loading.tsx';
import { PageCard } from '../../components/page-card.tsx';
import { failureText, messages } from '../../lib/messages.ts';
import { useSettings } from '../../lib/settings-service.ts';
import { ClientForm, type ClientFormOutput } from './client-form.tsx';
import { useCreateClient } from './clients-api.ts';

const EMPTY_CLIENT = { fname: '', lname: '', email: '', phone: '', balance: '0' };

export function AddClientPage() {
  const settings = useSettings();
  const createClient = useCreateClient();
  const flash = useFlash();
  const navigate = useNavigate();

  if (settings.isError && !settings.data) {
    return (
      <LoadFailed what="the settings" error={settings.error} onRetry={() => settings.refetch()} />
    );
  }
  if (!settings.data) return <Loading />;
  const balanceDisabled = settings.data.disableBalanceOnAdd;

  async function save(values: ClientFormOutput) {
    try {
      await createClient.mutateAsync({ ...values, balance: values.balance ?? '0.00' });
    } catch (error) {
      flash.failure(failureText('The client was not added', error), messages.failureSeconds);
      throw error;
    }
    flash.success(messages.clientAdded.text, messages.clientAdded.seconds);
    navigate(paths.dashboard);
  }

  return (
    <PageCard title="Add Client" backTo={paths.dashboard} backLabel="Back to Dashboard">
      <ClientForm
        key={String(balanceDisabled)}
        idPrefix="add-client"
        label="Add Client"
        initialValues={EMPTY_CLIENT}
        balanceDisabled={balanceDisabled}
        onSubmit={save}
      />
    </PageCard>
  );
}
