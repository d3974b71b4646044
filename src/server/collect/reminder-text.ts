import type { Client } from '../../shared/client-schema.ts';
import { mailtoUrl, smsUrl, whatsappUrl } from '../../shared/collect-links.ts';
import {
  type CollectionSettings,
  fillTemplate,
  LINK_PREVIEW_TEXTS,
} from '../../shared/collection-schema.ts';
import { paiseFromAmount } from '../../shared/money.ts';
import { isMobileNumber } from '../../shared/phone.ts';
import type { ReminderChannel, UnavailableChannels } from '../../shared/reminder-schema.ts';
import { validationMessage } from '../../shared/validation-messages.ts';

/*
 * A reminder's words and the link that hands them to an app on the operator's phone: the
 * server sends nothing (next-api.md, "Reminders").
 */

export const NO_MOBILE_MESSAGE = validationMessage('reminder-no-mobile');
export const NO_EMAIL_MESSAGE = validationMessage('reminder-no-email');

/** The channels that cannot reach this client, each with why. */
export function unavailableChannels(client: Client): UnavailableChannels {
  const unavailable: UnavailableChannels = {};
  if (!client.phoneValid || !isMobileNumber(client.phone)) {
    unavailable.whatsapp = NO_MOBILE_MESSAGE;
    unavailable.sms = NO_MOBILE_MESSAGE;
  }
  if (client.email.trim() === '') unavailable.email = NO_EMAIL_MESSAGE;
  return unavailable;
}

/** A template (or the operator's own text) filled in for a client. */
export function fillFor(
  template: string,
  client: Client,
  settings: CollectionSettings,
  link: string,
): string {
  return fillTemplate(template, {
    name: `${client.fname} ${client.lname}`.trim(),
    owedPaise: paiseFromAmount(client.balance),
    business: settings.businessName,
    link,
    upi: settings.upiId,
  });
}

/**
 * The operator's own text: its placeholders filled, and the preview's stand-in for the link
 * (the dialog edits the previewed text, where `{link}` reads "(statement link)", or
 * "(खाता विवरण का लिंक)" in a Hindi client's) replaced by the link made for it.
 */
export function fillOwnText(
  text: string,
  client: Client,
  settings: CollectionSettings,
  link: string,
): string {
  return LINK_PREVIEW_TEXTS.reduce(
    (filled, standIn) => filled.replaceAll(standIn, link),
    fillFor(text, client, settings, link),
  );
}

/**
 * How long a reminder may be once filled in. Its typed text is at most 2,000 characters and a
 * template 1,000, but each placeholder may stand for up to a hundred characters (a business
 * name, the link), so a text of placeholders alone could fill to ten times its length: 20,000
 * characters in a WhatsApp link and in the client's history. Twice the typed limit leaves room
 * for every placeholder a real message has.
 */
export const REMINDER_FILLED_MAX_LENGTH = 4000;
export const REMINDER_SUBJECT_FILLED_MAX_LENGTH = 1000;

/** The field a reminder's placeholders made too long to send, if any. */
export function overlongReminderField(
  message: string,
  subject?: string,
): 'message' | 'subject' | undefined {
  if (message.length > REMINDER_FILLED_MAX_LENGTH) return 'message';
  if (subject !== undefined && subject.length > REMINDER_SUBJECT_FILLED_MAX_LENGTH) {
    return 'subject';
  }
  return undefined;
}

/** Whether a message needs a statement link: it names `{link}` or a preview's stand-in. */
export function needsLink(text: string): boolean {
  return text.includes('{link}') || LINK_PREVIEW_TEXTS.some((standIn) => text.includes(standIn));
}

/** The link that opens the channel's app with the message; null for "copy". */
export function channelUrl(
  channel: ReminderChannel,
  client: Client,
  subject: string,
  message: string,
): string | null {
  switch (channel) {
    case 'whatsapp':
      return whatsappUrl(client.phone, message);
    case 'sms':
      return smsUrl(client.phone, message);
    case 'email':
      return mailtoUrl(client.email, subject, message);
    default:
      return null;
  }
}
