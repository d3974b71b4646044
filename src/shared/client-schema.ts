import { z } from 'zod';
import { emailSchema } from './auth-schema.ts';
import { formatAmount, parseAmount } from './money.ts';

/** The refusal of an update based on an old version (HTTP 409), shown as is by the web app. */
export const CLIENT_CONFLICT_MESSAGE = 'This client was changed elsewhere';

export const NAME_MIN_LENGTH = 2;
export const NAME_MAX_LENGTH = 100;
export const PHONE_LENGTH = 10;

function nameSchema(label: string) {
  return z
    .string({ error: `${label} is required` })
    .trim()
    .min(1, `${label} is required`)
    .min(NAME_MIN_LENGTH, `${label} must be at least ${NAME_MIN_LENGTH} characters`)
    .max(NAME_MAX_LENGTH, `${label} must be at most ${NAME_MAX_LENGTH} characters`);
}

export const phoneSchema = z
  .string({ error: 'Phone is required' })
  .trim()
  .min(1, 'Phone is required')
  .regex(/^\d{10}$/, `Phone must be exactly ${PHONE_LENGTH} digits`);

/** A balance as typed or sent (text or number), normalised to the API's text ("1234.50"). */
export const amountSchema = z
  .union([z.string(), z.number()], { error: 'Balance is required' })
  .transform((value, ctx) => {
    if (typeof value === 'string' && value.trim() === '') {
      ctx.addIssue({ code: 'custom', message: 'Balance is required' });
      return z.NEVER;
    }
    const parsed = parseAmount(value);
    if (!parsed.ok) {
      ctx.addIssue({ code: 'custom', message: parsed.error });
      return z.NEVER;
    }
    return formatAmount(parsed.paise);
  });

export const clientFieldsSchema = z.strictObject({
  fname: nameSchema('First name'),
  lname: nameSchema('Last name'),
  email: emailSchema,
  phone: phoneSchema,
  balance: amountSchema,
});
export type ClientFields = z.output<typeof clientFieldsSchema>;

export const clientPatchSchema = clientFieldsSchema.partial().extend({
  version: z.number({ error: 'version is required: send the version you last saw' }).int().min(1),
});
export type ClientPatch = z.output<typeof clientPatchSchema>;

export const balanceUpdateSchema = z.object({ balance: amountSchema });

export const CLIENT_SORT_FIELDS = [
  'lname',
  'fname',
  'email',
  'phone',
  'balance',
  'createdAt',
] as const;
export type ClientSortField = (typeof CLIENT_SORT_FIELDS)[number];

export const MAX_PAGE_SIZE = 500;
export const DEFAULT_PAGE_SIZE = 100;

export const clientListQuerySchema = z.strictObject({
  q: z.string().trim().max(200, 'Search text must be at most 200 characters').optional(),
  sort: z
    .enum(CLIENT_SORT_FIELDS, { error: `sort must be one of ${CLIENT_SORT_FIELDS.join(', ')}` })
    .default('lname'),
  dir: z.enum(['asc', 'desc'], { error: 'dir must be asc or desc' }).default('asc'),
  limit: z.coerce
    .number({ error: 'limit must be a number' })
    .int('limit must be a whole number')
    .min(1, 'limit must be at least 1')
    .max(MAX_PAGE_SIZE, `limit must be at most ${MAX_PAGE_SIZE}`)
    .default(DEFAULT_PAGE_SIZE),
  offset: z.coerce
    .number({ error: 'offset must be a number' })
    .int('offset must be a whole number')
    .min(0, 'offset must be 0 or more')
    .default(0),
});
export type ClientListQuery = z.output<typeof clientListQuerySchema>;

export const clientSchema = z.object({
  id: z.string(),
  fname: z.string(),
  lname: z.string(),
  email: z.string(),
  phone: z.string(),
  balance: z.string(),
  version: z.number(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Client = z.infer<typeof clientSchema>;

export interface ClientList {
  items: Client[];
  total: number;
  totalOwed: string;
}
