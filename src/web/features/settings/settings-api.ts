import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiPaths } from '../../../shared/paths.ts';
import { type Settings, settingsSchema } from '../../../shared/settings-schema.ts';
import { type SecurityPolicy, securityPolicySchema } from '../../../shared/two-factor-schema.ts';
import { api } from '../../lib/api-client.ts';
import { settings } from '../../lib/settings-service.ts';
import { securityPolicyQueryKey } from './settings-query-keys.ts';

export function useChangeSettings() {
  return useMutation({
    mutationFn: (changed: Settings) => api.put(apiPaths.settings, settingsSchema, changed),
    // Shown everywhere, and kept in localStorage.
    onSuccess: (saved) => settings.set(saved),
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
