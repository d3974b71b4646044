import * as z from 'zod/mini';
import { validationMessage } from './validation-messages.ts';

const TRUE_OR_FALSE = { error: validationMessage('setting.true-or-false') };

export const settingsSchema = z.strictObject({
  allowRegistrations: z.boolean(TRUE_OR_FALSE),
  disableBalanceOnAdd: z.boolean(TRUE_OR_FALSE),
  disableBalanceOnEdit: z.boolean(TRUE_OR_FALSE),
});
export type Settings = z.infer<typeof settingsSchema>;

export const DEFAULT_SETTINGS: Settings = {
  allowRegistrations: true,
  disableBalanceOnAdd: true,
  disableBalanceOnEdit: true,
};
