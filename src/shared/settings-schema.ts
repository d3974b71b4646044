import * as z from 'zod/mini';

export const settingsSchema = z.strictObject({
  allowRegistrations: z.boolean({ error: 'Must be true or false' }),
  disableBalanceOnAdd: z.boolean({ error: 'Must be true or false' }),
  disableBalanceOnEdit: z.boolean({ error: 'Must be true or false' }),
});
export type Settings = z.infer<typeof settingsSchema>;

export const DEFAULT_SETTINGS: Settings = {
  allowRegistrations: true,
  disableBalanceOnAdd: true,
  disableBalanceOnEdit: true,
};
