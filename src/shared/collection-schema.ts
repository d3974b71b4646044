import * as z from 'zod/mini';
import { formatInr } from './money.ts';
import { storableText } from './text.ts';
import { validationMessage } from './validation-messages.ts';

/**
 * What an operator's clients see when asked to pay: the business, where UPI payments go, other
 * ways to pay, and the reminder's words (next-api.md, "Collection settings").
 */

/** The words a reminder may use, each filled in for the client it goes to. */
export const TEMPLATE_PLACEHOLDERS = ['name', 'amount', 'business', 'link', 'upi'] as const;
export type TemplatePlaceholder = (typeof TEMPLATE_PLACEHOLDERS)[number];

export const DEFAULT_REMINDER_MESSAGE =
  'Namaste {name}, a reminder from {business}: {amount} is due. Your statement, and a way to pay by UPI: {link}';
export const DEFAULT_REMINDER_EMAIL_SUBJECT = 'Payment reminder from {business}';

// A UPI address ("virtual payment address"): name@bank (NPCI's handles are letters and digits).
const UPI_ID = /^[A-Za-z0-9._-]{2,256}@[A-Za-z0-9]{2,64}$/;
export const UPI_ID_MESSAGE = validationMessage('upiId.invalid');

export const MAX_PAYMENT_TERMS_DAYS = 365;

const PLACEHOLDER = /\{([^{}\s]*)\}/g;

/** The `{word}`s of a template that are not placeholders ("{amont}"), in order of appearance. */
export function unknownPlaceholders(template: string): string[] {
  const known: readonly string[] = TEMPLATE_PLACEHOLDERS;
  return [...template.matchAll(PLACEHOLDER)]
    .map((match) => match[1] ?? '')
    .filter((word) => !known.includes(word));
}

function unknownPlaceholderMessage(template: string): string {
  const braced = (words: readonly string[]) => words.map((word) => `{${word}}`).join(', ');
  return validationMessage('template.unknown-placeholder', {
    unknown: braced(unknownPlaceholders(template)),
    known: braced(TEMPLATE_PLACEHOLDERS),
  });
}

function templateText(field: 'reminderMessage' | 'reminderEmailSubject', max: number) {
  return storableText(
    field,
    { multiline: true },
    z.trim(),
    z.minLength(1, validationMessage(`${field}.required`)),
    z.maxLength(max, validationMessage(`${field}.too-long`)),
    z.refine((text: string) => unknownPlaceholders(text).length === 0, {
      error: (issue) => unknownPlaceholderMessage(String(issue.input)),
    }),
  );
}

function optionalText(
  field: 'businessName' | 'payeeName' | 'otherWaysToPay',
  max: number,
  multiline = false,
) {
  return storableText(
    field,
    { multiline },
    z.trim(),
    z.maxLength(max, validationMessage(`${field}.too-long`)),
  );
}

export const collectionSettingsSchema = z.strictObject({
  businessName: optionalText('businessName', 100),
  upiId: storableText(
    'upiId',
    {},
    z.trim(),
    z.refine((text: string) => text === '' || UPI_ID.test(text), UPI_ID_MESSAGE),
  ),
  payeeName: optionalText('payeeName', 100),
  otherWaysToPay: optionalText('otherWaysToPay', 500, true),
  reminderMessage: templateText('reminderMessage', 1000),
  reminderEmailSubject: templateText('reminderEmailSubject', 200),
  /**
   * Days after its date that a charge (or an opening balance) is due; 0: at once. Left out by
   * a client written before terms existed: the saved terms stay.
   */
  paymentTermsDays: z.optional(
    z
      .int({ error: validationMessage('paymentTermsDays.not-whole') })
      .check(
        z.minimum(0, validationMessage('paymentTermsDays.negative')),
        z.maximum(MAX_PAYMENT_TERMS_DAYS, validationMessage('paymentTermsDays.too-large')),
      ),
  ),
});
export type CollectionSettingsInput = z.infer<typeof collectionSettingsSchema>;
/** The settings as saved and answered: every field. */
export type CollectionSettings = Required<CollectionSettingsInput>;

export const DEFAULT_COLLECTION_SETTINGS: CollectionSettings = {
  businessName: '',
  upiId: '',
  payeeName: '',
  otherWaysToPay: '',
  reminderMessage: DEFAULT_REMINDER_MESSAGE,
  reminderEmailSubject: DEFAULT_REMINDER_EMAIL_SUBJECT,
  paymentTermsDays: 0,
};

/** What a template's placeholders become for one client. */
export interface TemplateValues {
  /** The client's full name. */
  name: string;
  /** What the client owes, in paise (0 or less: nothing). */
  owedPaise: bigint;
  business: string;
  /** The statement link's URL, or the text shown in its place in a preview. */
  link: string;
  upi: string;
}

/** The text shown for `{link}` where no link is made (a preview changes nothing). */
export const LINK_PREVIEW_TEXT = '(statement link)';

/** A template filled in: every known placeholder replaced, money as the app shows it. */
export function fillTemplate(template: string, values: TemplateValues): string {
  const filled: Record<TemplatePlaceholder, string> = {
    name: values.name,
    amount: formatInr(values.owedPaise > 0n ? values.owedPaise : 0n),
    business: values.business,
    link: values.link,
    upi: values.upi,
  };
  return template.replace(PLACEHOLDER, (whole, word: string) =>
    word in filled ? filled[word as TemplatePlaceholder] : whole,
  );
}

export function usesLink(template: string): boolean {
  return template.includes('{link}');
}
