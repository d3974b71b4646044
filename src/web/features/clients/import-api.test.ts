import { afterEach, expect, test, vi } from 'vitest';
import { BOOK_HEADER } from '../../../shared/book-roles.ts';
import { requestsAnswered, workInBook } from '../../lib/api-client.ts';
import { importClients } from './import-api.ts';

afterEach(() => {
  vi.unstubAllGlobals();
  workInBook(undefined);
});

/** An upload that records the headers it was sent with, answered when the test says. */
function stubUpload() {
  const sent: Record<string, string> = {};
  let answer = () => {};
  class FakeUpload {
    status = 201;
    responseText = JSON.stringify({ created: 1, skipped: 0 });
    upload = { onprogress: null };
    onload: (() => void) | null = null;
    onerror: (() => void) | null = null;
    open() {}
    setRequestHeader(name: string, value: string) {
      sent[name] = value;
    }
    send() {
      answer = () => this.onload?.();
    }
  }
  vi.stubGlobal('XMLHttpRequest', FakeUpload);
  return { sent, answer: () => answer() };
}

test('an import says which book it is for, so the server refuses it once the session has moved on', async () => {
  const upload = stubUpload();
  workInBook('book-1');
  const imported = importClients(new Blob(['First Name\n']), {}, () => {});
  expect(upload.sent[BOOK_HEADER]).toBe('book-1');
  upload.answer();
  expect(await imported).toEqual({ created: 1, skipped: 0 });
});

test('signing out waits for an import on its way', async () => {
  const upload = stubUpload();
  const imported = importClients(new Blob(['First Name\n']), {}, () => {});
  let waited = false;
  const waiting = requestsAnswered(5_000).then(() => {
    waited = true;
  });
  await new Promise((resolve) => setTimeout(resolve, 20));
  expect(waited).toBe(false);
  upload.answer();
  await imported;
  await waiting;
  expect(waited).toBe(true);
});
