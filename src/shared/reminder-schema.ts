import * as z from 'zod/mini';
import { onlyKnownPlaceholders } from './collection-schema.ts';
import { storableText } from './text.ts';
import { validationMessage } from './validation-messages.ts';

/*
 * Reminders: a message filled in from the operator's template, handed to WhatsApp, the SMS
 * app, the mail app or the clipboard on the operator's own device, and recorded (next-api.md,
 * "Reminders").
 */

export const REMINDER_CHANNELS = ['whatsapp', 'sms', 'email', 'copy'] as const;
export type ReminderChannel = (typeof REMINDER_CHANNELS)[number];

export const REMINDER_MESSAGE_MAX_LENGTH = 2000;

const CHANNEL_MESSAGE = validationMessage('param.one-of', {
  name: 'channel',
  values: REMINDER_CHANNELS.join(', '),
});

export const reminderPreviewQuerySchema = z.strictObject({
  channel: z._default(z.enum(REMINDER_CHANNELS, { error: CHANNEL_MESSAGE }), 'whatsapp'),
});

/**
 * Why a channel cannot reach this client (no mobile number for WhatsApp and SMS, no e-mail
 * address), by channel; a channel absent here can be used.
 */
export const unavailableChannelsSchema = z.partialRecord(z.enum(REMINDER_CHANNELS), z.string());
export type UnavailableChannels = z.infer<typeof unavailableChannelsSchema>;

export const reminderPreviewSchema = z.object({
  message: z.string(),
  subject: z.optional(z.string()),
  unavailable: unavailableChannelsSchema,
});
export type ReminderPreview = z.infer<typeof reminderPreviewSchema>;

export const newReminderSchema = z.strictObject({
  channel: z.enum(REMINDER_CHANNELS, { error: CHANNEL_MESSAGE }),
  message: z.optional(
    storableText(
      'message',
      { multiline: true },
      z.trim(),
      z.minLength(1, validationMessage('message.required')),
      z.maxLength(REMINDER_MESSAGE_MAX_LENGTH, validationMessage('message.too-long')),
      // Its placeholders are filled in as a template's are; a typo ("{amont}") would reach
      // the client as typed.
      onlyKnownPlaceholders(),
    ),
  ),
});
export type NewReminderInput = z.input<typeof newReminderSchema>;

export const sentReminderSchema = z.object({
  id: z.string(),
  channel: z.enum(REMINDER_CHANNELS),
  sentAt: z.iso.datetime(),
  message: z.string(),
  /** The link that opens the app with the message; null for "copy". */
  url: z.nullable(z.string()),
});
export type SentReminder = z.infer<typeof sentReminderSchema>;

export const reminderSchema = z.object({
  id: z.string(),
  channel: z.enum(REMINDER_CHANNELS),
  sentAt: z.iso.datetime(),
  message: z.string(),
  by: z.object({ id: z.string(), email: z.string() }),
});
export type Reminder = z.infer<typeof reminderSchema>;

export const reminderListSchema = z.object({ items: z.array(reminderSchema) });
