import type { FastifyInstance } from 'fastify';
import { linkPreviewText, templatesFor } from '../../shared/collection-schema.ts';
import {
  newReminderSchema,
  reminderListSchema,
  reminderPreviewQuerySchema,
  reminderPreviewSchema,
  sentReminderSchema,
} from '../../shared/reminder-schema.ts';
import { DEFAULT_LINK_DAYS } from '../../shared/share-link-schema.ts';
import { bookOf, registerSignedIn } from '../auth/session.ts';
import { clientName } from '../books/activity-lines.ts';
import { recordActivity } from '../books/activity-repository.ts';
import { memberOf } from '../books/book-member.ts';
import { answerClient, lockOwnedClient, selectOwnedClient } from '../clients/client-rows.ts';
import { idParams, type RouteParts, refusals } from '../http/api-routes.ts';
import { fieldRefusal, HttpError } from '../http/errors.ts';
import { dateIn } from '../ledger/panel-date.ts';
import { writeWithEvents } from '../live/write-with-events.ts';
import { getCollectionSettings } from './collection-settings-repository.ts';
import {
  channelUrl,
  fillFor,
  fillOwnText,
  NO_MOBILE_MESSAGE,
  needsLink,
  overlongReminderField,
  unavailableChannels,
} from './reminder-text.ts';
import { listReminders, recordReminder } from './reminders-repository.ts';
import { createShareLink } from './share-links-repository.ts';

/** A reminder its placeholders made too long is refused, naming the field to shorten. */
function refuseOverlong(message: string, subject?: string): void {
  const field = overlongReminderField(message, subject);
  if (field) throw fieldRefusal(400, 'reminder-too-long', field);
}

/** Reminders: the message filled in for a client, recorded when the operator sends it. */
export async function registerRemindersRoutes(
  app: FastifyInstance,
  { config, database, readSession, bus }: RouteParts,
): Promise<void> {
  await registerSignedIn(app, { readSession }, async (routes) => {
    routes.get(
      '/api/clients/:id/reminders/preview',
      {
        config: { bookAction: 'read' },
        schema: {
          tags: ['Getting paid'],
          summary: 'The reminder filled in for this client, and the channels that cannot reach it',
          params: idParams,
          querystring: reminderPreviewQuerySchema,
          response: { 200: reminderPreviewSchema, ...refusals },
        },
      },
      async (request) => {
        const ownerId = bookOf(request).id;
        const [row, settings] = await Promise.all([
          selectOwnedClient(database, ownerId, request.params.id),
          getCollectionSettings(database, ownerId),
        ]);
        if (!row) throw new HttpError(404, 'client-not-found');
        const client = await answerClient(database, row, dateIn(config.timeZone));
        // In the client's language: its template, and its words for the link to come.
        const templates = templatesFor(settings, client.language);
        const link = linkPreviewText(client.language);
        const message = fillFor(templates.reminderMessage, client, settings, link);
        const subject =
          request.query.channel === 'email'
            ? fillFor(templates.reminderEmailSubject, client, settings, link)
            : undefined;
        refuseOverlong(message, subject);
        return {
          message,
          ...(subject !== undefined ? { subject } : {}),
          unavailable: unavailableChannels(client),
        };
      },
    );

    routes.post(
      '/api/clients/:id/reminders',
      {
        config: { bookAction: 'reminders.send' },
        schema: {
          tags: ['Getting paid'],
          summary:
            'Record a reminder and answer the link that opens WhatsApp, SMS or mail with it (the server sends nothing)',
          params: idParams,
          body: newReminderSchema,
          response: { 201: sentReminderSchema, ...refusals },
        },
      },
      async (request, reply) => {
        const operator = memberOf(request);
        const { channel } = request.body;
        const today = dateIn(config.timeZone);
        const sent = await writeWithEvents(database, bus, async (trx, publish) => {
          // Locked: a delete at the same moment waits for the reminder, or it finds the client gone.
          const row = await lockOwnedClient(trx, operator.bookId, request.params.id);
          if (!row) throw new HttpError(404, 'client-not-found');
          const client = await answerClient(trx, row, today);
          const why = unavailableChannels(client)[channel];
          if (why) {
            const code = why === NO_MOBILE_MESSAGE ? 'reminder-no-mobile' : 'reminder-no-email';
            throw fieldRefusal(400, code, 'channel');
          }
          const settings = await getCollectionSettings(trx, operator.bookId);
          const templates = templatesFor(settings, client.language);
          const text = request.body.message ?? templates.reminderMessage;
          // Tokens are kept only as digests, so no older link's URL can be shown again: a
          // message that carries a link carries a new one (docs/decisions/0035).
          let url = linkPreviewText(client.language);
          if (needsLink(text)) {
            const made = await createShareLink(trx, operator.bookId, client.id, DEFAULT_LINK_DAYS);
            if (made.kind === 'created') url = `${config.publicUrl}/s/${made.token}`;
          }
          const message = fillOwnText(text, client, settings, url);
          const subject = fillFor(templates.reminderEmailSubject, client, settings, url);
          refuseOverlong(message, channel === 'email' ? subject : undefined);
          // "{upi}" alone, with no UPI ID set, fills in to nothing: no reminder to send.
          if (message.trim() === '') throw fieldRefusal(400, 'reminder-empty', 'message');
          const recorded = await recordReminder(trx, {
            operator,
            client: row,
            channel,
            // The history keeps the text without the link's address: a statement link opens
            // without a sign-in, and its token is kept only as a digest (decision 0035).
            message: fillOwnText(text, client, settings, linkPreviewText(client.language)),
            today,
          });
          const event = { type: 'client.updated' as const, client: recorded.client };
          await publish({ kind: 'event', ownerId: operator.bookId, event });
          await recordActivity(trx, operator, {
            action: 'reminder.sent',
            clientId: client.id,
            summary: `Sent ${clientName(client)} a reminder (${channel})`,
          });
          return {
            id: recorded.id,
            channel,
            sentAt: recorded.sentAt,
            message,
            url: channelUrl(channel, client, subject, message),
          };
        });
        return reply.status(201).send(sent);
      },
    );

    routes.get(
      '/api/clients/:id/reminders',
      {
        config: { bookAction: 'read' },
        schema: {
          tags: ['Getting paid'],
          summary: "The client's reminders, newest first",
          params: idParams,
          response: { 200: reminderListSchema, ...refusals },
        },
      },
      async (request) => {
        const items = await listReminders(database, bookOf(request).id, request.params.id);
        if (!items) throw new HttpError(404, 'client-not-found');
        return { items };
      },
    );
  });
}
