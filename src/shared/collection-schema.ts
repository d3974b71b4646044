import * as z from 'zod/mini';
import { LANGUAGES, type Language } from './languages.ts';
import english from './locales/en/reminders.json' with { type: 'json' };
import hindi from './locales/hi/reminders.json' with { type: 'json' };
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

/**
 * The built-in reminder texts of each language (src/shared/locales/<lang>/reminders.json): the
 * templates until the operator saves their own, and what a preview shows for `{link}`.
 */
const REMINDER_TEXTS: Record<Language, typeof english> = { en: english, hi: hindi };

export const DEFAULT_REMINDER_MESSAGE = english['reminders.defaultMessage'];
export const DEFAULT_REMINDER_EMAIL_SUBJECT = english['reminders.defaultEmailSubject'];

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

/** Refuses a text with a `{word}` that is not a placeholder: it would go out as typed. */
export function onlyKnownPlaceholders() {
  return z.refine<string>((text) => unknownPlaceholders(text).length === 0, {
    error: (issue) => unknownPlaceholderMessage(String(issue.input)),
  });
}

function templateText(field: 'reminderMessage' | 'reminderEmailSubject', max: number) {
  return storableText(
    field,
    // A subject is one line: a line break in it would reach the mail app as a header of its
    // own (RFC 6068's warning about CR and LF in a mailto: link).
    { multiline: field === 'reminderMessage' },
    z.trim(),
    z.minLength(1, validationMessage(`${field}.required`)),
    z.maxLength(max, validationMessage(`${field}.too-long`)),
    onlyKnownPlaceholders(),
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

/** One language's reminder: the message, and the subject of a reminder sent by e-mail. */
export const reminderTemplatesSchema = z.strictObject({
  reminderMessage: templateText('reminderMessage', 1000),
  reminderEmailSubject: templateText('reminderEmailSubject', 200),
});
export type ReminderTemplates = z.infer<typeof reminderTemplatesSchema>;

/** The built-in templates of a language. */
export function defaultTemplates(language: Language): ReminderTemplates {
  return {
    reminderMessage: REMINDER_TEXTS[language]['reminders.defaultMessage'],
    reminderEmailSubject: REMINDER_TEXTS[language]['reminders.defaultEmailSubject'],
  };
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
  /** The English reminder (the templates of the other languages are in `templates`). */
  reminderMessage: reminderTemplatesSchema.shape.reminderMessage,
  reminderEmailSubject: reminderTemplatesSchema.shape.reminderEmailSubject,
  /**
   * The reminders of the other languages, each used for the clients who read that language.
   * Left out by a client written before languages existed: the saved ones stay.
   */
  templates: z.optional(z.strictObject({ hi: reminderTemplatesSchema })),
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
  ...defaultTemplates('en'),
  templates: { hi: defaultTemplates('hi') },
  paymentTermsDays: 0,
};

/** The templates a client's reminder is written with: those of the client's language. */
export function templatesFor(settings: CollectionSettings, language: Language): ReminderTemplates {
  if (language === 'en') {
    return {
      reminderMessage: settings.reminderMessage,
      reminderEmailSubject: settings.reminderEmailSubject,
    };
  }
  return settings.templates[language];
}

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

/** The text shown for `{link}` where no link is made (a preview changes nothing), by language. */
export function linkPreviewText(language: Language): string {
  return REMINDER_TEXTS[language]['reminders.linkPreview'];
}

/** The English one: "(statement link)". */
export const LINK_PREVIEW_TEXT = linkPreviewText('en');

/** Every language's: a message edited from any preview may hold one. */
export const LINK_PREVIEW_TEXTS: readonly string[] = LANGUAGES.map(linkPreviewText);

/** A template filled in: every known placeholder replaced, money as the app shows it. */
export function fillTemplate(template: string, values: TemplateValues): string {
  const filled: Record<TemplatePlaceholder, string> = {
    name: values.name,
    amount: formatInr(values.owedPaise > 0n ? values.owedPaise : 0n),
    business: values.business,
    link: values.link,
    upi: values.upi,
  };
  // Own keys only: `in` would also find what every object inherits ({constructor}, {toString}).
  return template.replace(PLACEHOLDER, (whole, word: string) =>
    Object.hasOwn(filled, word) ? filled[word as TemplatePlaceholder] : whole,
  );
}

export function usesLink(template: string): boolean {
  return template.includes('{link}');
}
