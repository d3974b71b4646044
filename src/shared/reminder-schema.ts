import * as z from 'zod/mini';
import { storableText } from './text.ts';

/*
 * Reminders: a message filled in from the operator's template, handed to WhatsApp, the SMS
 * app, the mail app or the clipboard on the operator's own device, and recorded (next-api.md,
 * "Reminders").
 */

export const REMINDER_CHANNELS = ['whatsapp', 'sms', 'email', 'copy'] as const;
export type ReminderChannel = (typeof REMINDER_CHANNELS)[number];

export const REMINDER_MESSAGE_MAX_LENGTH = 2000;

export const reminderPreviewQuerySchema = z.strictObject({
  channel: z._default(
    z.enum(REMINDER_CHANNELS, { error: `channel must be one of ${REMINDER_CHANNELS.join(', ')}` }),
    'whatsapp',
  ),
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
  channel: z.enum(REMINDER_CHANNELS, {
    error: `channel must be one of ${REMINDER_CHANNELS.join(', ')}`,
  }),
  message: z.optional(
    storableText(
      'Message',
      { multiline: true },
      z.trim(),
      z.minLength(1, 'Message is required'),
      z.maxLength(
        REMINDER_MESSAGE_MAX_LENGTH,
        `Message must be at most ${REMINDER_MESSAGE_MAX_LENGTH.toLocaleString('en-IN')} characters`,
      ),
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
