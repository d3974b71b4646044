import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiPaths } from '../../../shared/paths.ts';
import { type Settings, settingsSchema } from '../../../shared/settings-schema.ts';
import { type SecurityPolicy, securityPolicySchema } from '../../../shared/two-factor-schema.ts';
import { api } from '../../lib/api-client.ts';
import { cacheSettings, settingsQueryKey } from '../../lib/settings-service.ts';
import { securityPolicyQueryKey } from './settings-query-keys.ts';

async function changeSettings(settings: Settings): Promise<Settings> {
  const saved = await api.put(apiPaths.settings, settingsSchema, settings);
  cacheSettings(saved);
  return saved;
}

export function useChangeSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: changeSettings,
    onSuccess: (saved) => queryClient.setQueryData(settingsQueryKey, saved),
  });
}

/** Whether the administrator requires two-factor sign-in of every operator. */
export function useSecurityPolicy() {
  return useQuery({
    queryKey: securityPolicyQueryKey,
    queryFn: () => api.get(apiPaths.settingsSecurity, securityPolicySchema),
  });
}

export function useChangeSecurityPolicy() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (policy: SecurityPolicy) =>
      api.put(apiPaths.settingsSecurity, securityPolicySchema, policy),
    onSuccess: (saved) => queryClient.setQueryData(securityPolicyQueryKey, saved),
  });
}
