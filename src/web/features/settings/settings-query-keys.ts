// The settings page's cached lists, in one place: the account's and the operators' calls each
// refresh the other's (an e-mail change renames a row of operators; signing every operator out
// ends the administrator's other sessions too).
export const operatorsQueryKey = ['operators'] as const;
export const accountSessionsQueryKey = ['account', 'sessions'] as const;
export const twoFactorQueryKey = ['account', 'two-factor'] as const;
export const securityPolicyQueryKey = ['security-policy'] as const;
