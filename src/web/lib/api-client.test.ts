import { afterEach, expect, test, vi } from 'vitest';
import * as z from 'zod/mini';
import { BOOK_HEADER } from '../../shared/book-roles.ts';
import { UNATTENDED_AFTER_MS, UNATTENDED_HEADER } from '../../shared/session-use.ts';
import { apiRequest, requestsAnswered, workInBook } from './api-client.ts';
import { noteInput, watchInput } from './attention.ts';

afterEach(() => {
  vi.unstubAllGlobals();
});

/** The headers of the one call `apiRequest` makes. */
async function headersOfACall(): Promise<Record<string, string>> {
  let sent: Record<string, string> = {};
  vi.stubGlobal('fetch', async (_path: string, init: RequestInit) => {
    sent = init.headers as Record<string, string>;
    return new Response('{}', { status: 200 });
  });
  await apiRequest('GET', '/api/totals', z.object({}));
  return sent;
}

test('calls made a minute after the last key or click say the page is unattended', async () => {
  noteInput(Date.now() - UNATTENDED_AFTER_MS - 1);
  expect((await headersOfACall())[UNATTENDED_HEADER]).toBe('1');
  // The person presses a key: the next call is theirs again.
  watchInput(window);
  window.dispatchEvent(new KeyboardEvent('keydown', { key: 'a' }));
  expect(await headersOfACall()).not.toHaveProperty(UNATTENDED_HEADER);
});

test('calls right after a click are a use of the session', async () => {
  noteInput(Date.now() - UNATTENDED_AFTER_MS + 5_000);
  expect(await headersOfACall()).not.toHaveProperty(UNATTENDED_HEADER);
});

test("calls name the book the page shows once it is known, so the server can refuse a page of another book's", async () => {
  workInBook(undefined);
  expect(await headersOfACall()).not.toHaveProperty(BOOK_HEADER);
  workInBook('book-1');
  expect((await headersOfACall())[BOOK_HEADER]).toBe('book-1');
  workInBook(undefined);
});

test('waiting for the answers on their way gives up at its limit when the server never answers', async () => {
  let answerAtLast = () => {};
  vi.stubGlobal(
    'fetch',
    () =>
      new Promise<Response>((resolve) => {
        answerAtLast = () => resolve(new Response('{}', { status: 200 }));
      }),
  );
  const request = apiRequest('GET', '/api/totals', z.object({}));
  let waited = false;
  const waiting = requestsAnswered(100).then(() => {
    waited = true;
  });
  await new Promise((resolve) => setTimeout(resolve, 30));
  expect(waited).toBe(false);
  await waiting;
  expect(waited).toBe(true);
  answerAtLast();
  await request;
});
