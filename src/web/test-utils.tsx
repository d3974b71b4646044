import { render, waitFor } from '@testing-library/react';
import { type ReactElement, useLayoutEffect } from 'react';
import { type Location, MemoryRouter, type RouteObject, useLocation } from 'react-router';
import { afterEach, beforeEach, vi } from 'vitest';
import type { BookRole } from '../shared/book-roles.ts';
import type { Book } from '../shared/book-schema.ts';
import type { Client } from '../shared/client-schema.ts';
import english from '../shared/locales/en/validation.json' with { type: 'json' };
import { formatAmount, paiseFromAmount } from '../shared/money.ts';
import {
  fillPlaceholders,
  type MessageValues,
  type ValidationCode,
} from '../shared/validation-messages.ts';
import { App } from './app/routes.tsx';
import { LanguageProvider } from './i18n/language-provider.tsx';
import { session } from './lib/session.ts';
import { settings } from './lib/settings-service.ts';

/** What a handler answers: a status and a JSON body. */
interface HandlerAnswer {
  status: number;
  body?: unknown;
}

/**
 * Answers one "METHOD /path" request (its query in `url`): its status and JSON body, or a
 * promise of them (an answer held back; one never settled never comes).
 */
export type Handler = (
  init: RequestInit | undefined,
  url?: URL,
) => HandlerAnswer | Promise<HandlerAnswer>;

/** The API a test answers with, beyond the session and the settings. */
export type ApiRoutes = Record<string, Handler>;

/** A value, or a function read at each request (for a test that changes it midway). */
type Answer<T> = T | (() => T);

export interface ApiAnswers {
  /** What GET /api/auth/get-session answers: the signed-in operator, or null (signed out). */
  session?: Answer<unknown>;
  /** What GET /api/settings answers: openSettings unless given. */
  settings?: Answer<unknown>;
  /** What GET /api/books answers: one book of the operator's own (ownBook) unless given. */
  books?: Answer<unknown>;
  /** Any other request; an entry for the session or settings path here wins over both. */
  routes?: ApiRoutes;
}

function current<T>(answer: Answer<T>): T {
  return typeof answer === 'function' ? (answer as () => T)() : answer;
}

/**
 * Answers the app's fetch calls: the session (signed out unless given), the panel's settings
 * (openSettings unless given) and a table of "METHOD /path" routes; anything else fails the
 * test loudly.
 */
export function mockApi({
  session = null,
  settings = openSettings,
  books = { items: [ownBook] },
  routes = {},
}: ApiAnswers = {}) {
  const handlers: ApiRoutes = {
    'GET /api/auth/get-session': () => ({ status: 200, body: current(session) }),
    'GET /api/settings': () => ({ status: 200, body: current(settings) }),
    'GET /api/books': () => ({ status: 200, body: current(books) }),
    ...routes,
  };
  const calls: string[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    const key = `${init?.method ?? 'GET'} ${url.pathname}`;
    calls.push(key);
    const handler = handlers[key];
    if (!handler) throw new Error(`unexpected request ${key}`);
    const { status, body } = await handler(init, url);
    return new Response(body === undefined ? null : JSON.stringify(body), {
      status,
      headers: { 'content-type': 'application/json' },
    });
  });
  vi.stubGlobal('fetch', fetchMock);
  return { calls };
}

/**
 * The real app at a path, started as main.tsx starts it (the session and settings read
 * afresh); `extraPages` joins the signed-in pages (a page that throws, say). `router.state`
 * says where the app is (its location once shown).
 */
/**
 * A field message in English, as the server writes it (its `fieldErrors`) and an English page
 * shows it; the browser's own schemas write codes instead (validation-texts-in-browser.ts).
 */
export function englishFieldMessage(code: ValidationCode, values?: MessageValues): string {
  return fillPlaceholders(english[`validation.${code}`], values);
}

/** A component as the app shows it: with its texts (for a component rendered alone). */
export function renderWithTexts(ui: ReactElement) {
  return render(ui, { wrapper: LanguageProvider });
}

export function renderApp(path: string, extraPages: RouteObject[] = []) {
  session.start();
  settings.start();
  const router = { state: { location: undefined as unknown as Location } };
  function WhereTheAppIs() {
    const location = useLocation();
    useLayoutEffect(() => {
      router.state = { location };
    }, [location]);
    return null;
  }
  render(
    <MemoryRouter initialEntries={[path]}>
      <WhereTheAppIs />
      <LanguageProvider>
        <App extraPages={extraPages} />
      </LanguageProvider>
    </MemoryRouter>,
  );
  return { router };
}

export const openSettings = {
  allowRegistrations: true,
  disableBalanceOnAdd: true,
  disableBalanceOnEdit: true,
};

/** A book as GET /api/books lists it: the operator's own, current, theirs to do anything in. */
export const ownBook: Book = { id: 'b1', name: 'My shop', role: 'owner', current: true };

/** The books of a member of another's book, with `role` in it, that book current. */
export function memberOf(role: BookRole, name = 'Sharma Traders'): { items: Book[] } {
  return {
    items: [
      { ...ownBook, current: false },
      { id: 'b2', name, role, current: true },
    ],
  };
}

export const signedIn = { user: { id: 'u1', email: 'op@example.com', role: 'admin' } };

/** A live socket that never connects by itself; a test may send the latest one a message. */
export class FakeWebSocket {
  static OPEN = 1;
  /** The tab's live channel, to send it what another tab did. */
  static latest: FakeWebSocket | undefined;
  onopen: (() => void) | null = null;
  onmessage: ((message: { data: string }) => void) | null = null;
  /** The server closing it (`code`: 4403 when the book's access changed, say). */
  onclose: ((event: { code: number }) => void) | null = null;
  constructor() {
    FakeWebSocket.latest = this;
  }
  close() {}
}

/**
 * Every test of the file gets a FakeWebSocket for the page's live channel, and starts with
 * none open (the last test's would otherwise stand in for one this page has not opened yet).
 */
export function stubLiveSocketInEachTest(): void {
  beforeEach(() => {
    FakeWebSocket.latest = undefined;
    vi.stubGlobal('WebSocket', FakeWebSocket);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });
}

/**
 * The page's live channel once it has opened one: what a test sends through it before then
 * reaches nothing (the page opens it in an effect, after its first answers).
 */
export function liveChannel(): Promise<FakeWebSocket> {
  return waitFor(() => {
    const socket = FakeWebSocket.latest;
    if (!socket) throw new Error('the page has not opened its live channel yet');
    return socket;
  });
}

/** GET /api/clients's answer with these clients: all of them, and what they owe in all. */
export function clientListAnswer(...clients: Client[]) {
  const owed = clients.reduce((sum, client) => sum + paiseFromAmount(client.balance), 0n);
  return {
    status: 200,
    body: { items: clients, total: clients.length, totalOwed: formatAmount(owed) },
  };
}

/**
 * A client as the API answers one (a valid mobile, nothing pending, never reminded, nothing
 * overdue, no promise).
 */

export function apiClient(id: string, fname: string, lname: string, balance: string): Client {
  return {
    id,
    fname,
    lname,
    email: `${fname.toLowerCase()}@example.com`,
    phone: '+919847012345',
    phoneDisplay: '98470 12345',
    phoneValid: true,
    balance,
    version: 1,
    lastPaymentOn: null,
    pendingClaims: 0,
    lastRemindedOn: null,
    overdue: '0.00',
    overdueSince: null,
    promise: null,
    language: 'en',
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
  };
}
