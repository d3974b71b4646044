import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { apiPaths } from '../../shared/paths.ts';
import {
  LINK_NOT_VALID_MESSAGE,
  TOO_MANY_PENDING_CLAIMS_MESSAGE,
} from '../../shared/share-link-schema.ts';
import { statementTexts } from '../i18n/statement-texts.ts';
import { dateIn } from '../ledger/panel-date.ts';
import {
  addClient,
  injectCall,
  type SignedUp,
  setPanelSettings,
  signUp,
  startTestApp,
  type TestApp,
} from '../test-support.ts';
import { TOO_MANY_CLAIMS_MESSAGE } from './shared-routes.ts';

/*
 * The statement link's page in the client's language (issue 22), with a link to the other: its
 * words, <html lang>, its dates; the no-script claim form, its thanks and refusals, and the page
 * of a link that is not valid.
 */

let t: TestApp;
let owner: SignedUp;
beforeAll(async () => {
  t = await startTestApp();
  await setPanelSettings(t, { disableBalanceOnAdd: false, disableBalanceOnEdit: false });
  owner = await signUp(t.app);
  const saved = await injectCall(t.app, 'PUT', apiPaths.collectionSettings, owner.cookie, {
    businessName: 'राव स्टोर्स',
    upiId: 'rao@okaxis',
    payeeName: '',
    otherWaysToPay: '',
    reminderMessage: 'Hello {name}',
    reminderEmailSubject: 'From {business}',
  });
  expect(saved.statusCode, saved.body).toBe(200);
});
afterAll(async () => {
  await t.close();
});

// Written out here, not asked of Intl: what a reader of each language expects to see.
const HINDI_MONTHS = 'जनवरी फ़रवरी मार्च अप्रैल मई जून जुलाई अगस्त सितंबर अक्टूबर नवंबर दिसंबर';
const ENGLISH_MONTHS = 'Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec';

function dayIn(language: 'en' | 'hi', on: string): string {
  const [year, month, day] = on.split('-').map(Number) as [number, number, number];
  const months = (language === 'hi' ? HINDI_MONTHS : ENGLISH_MONTHS).split(' ');
  return `${day} ${months[month - 1]} ${year}`;
}

/** Two days before the panel's today: a date the page shows among its entries. */
function twoDaysAgo(): string {
  const date = new Date(`${dateIn('Asia/Kolkata')}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() - 2);
  return date.toISOString().slice(0, 10);
}

/** A client of the owner's, owing ₹1,23,456.50 with a charge two days ago, and its link's token. */
async function clientWithLink(language: 'en' | 'hi') {
  const client = await addClient(t.app, owner.cookie, {
    fname: language === 'hi' ? 'राजेश' : 'Ravi',
    lname: language === 'hi' ? 'कुमार' : 'Kumar',
    balance: '123356.5',
    language,
  });
  const on = twoDaysAgo();
  const charged = await injectCall(t.app, 'POST', apiPaths.entries(client.id), owner.cookie, {
    kind: 'charge',
    amount: '100',
    note: 'चीनी',
    on,
  });
  expect(charged.statusCode, charged.body).toBe(201);
  const link = await injectCall(t.app, 'POST', apiPaths.shareLinks(client.id), owner.cookie, {});
  expect(link.statusCode, link.body).toBe(201);
  return { client, on, token: String(link.json().url).split('/s/')[1] ?? '' };
}

function page(url: string, headers: Record<string, string> = {}) {
  return t.app.inject({ method: 'GET', url, headers });
}

let addresses = 0;
function form(url: string, payload: string) {
  addresses += 1;
  return t.app.inject({
    method: 'POST',
    url,
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'null' },
    remoteAddress: `10.9.0.${addresses}`,
    payload,
  });
}

describe('the statement page', () => {
  test('is in Hindi for a Hindi client: words, <html lang>, dates with the month in full, amounts as ever', async () => {
    const { token, on } = await clientWithLink('hi');
    const answer = await page(`/s/${token}`);
    expect(answer.statusCode).toBe(200);
    const html = answer.body;
    expect(html).toMatch(/^<!doctype html><html lang="hi">/);
    expect(html).toContain('<title>राव स्टोर्स: राजेश कुमार का खाता विवरण</title>');
    expect(html).toContain('<p>आपका बकाया</p><p class="amount owe">₹1,23,456.50</p>');
    expect(html).toContain('UPI से ₹1,23,456.50 का भुगतान करें');
    expect(html).toContain(`<td>${dayIn('hi', on)}</td><td>उधार: चीनी</td>`);
    // The time of day in Hindi words ("शाम 5:44"), not CLDR's Latin "pm".
    expect(html).toMatch(
      /\d{1,2} [^\s<]+ \d{4} को (सुबह|दोपहर|शाम|रात) \d{1,2}:\d{2} बजे तक का हिसाब/,
    );
    expect(html).toContain('<h2 id="paid">मैंने भुगतान कर दिया है</h2>');
    expect(html).toContain(`action="/s/${token}/claims?lang=hi"`);
    expect(html).toContain(
      `<nav class="lang" aria-label="भाषा"><a href="/s/${token}?lang=en" lang="en" hreflang="en">English</a></nav>`,
    );
    for (const english of ['You owe', 'Statement for', 'I have paid', 'Last 90 days', 'As of']) {
      expect(html).not.toContain(english);
    }
  });

  test('its switch shows it in English, with a switch back; the pages after it keep English', async () => {
    const { token, on } = await clientWithLink('hi');
    const html = (await page(`/s/${token}?lang=en`)).body;
    expect(html).toMatch(/^<!doctype html><html lang="en">/);
    expect(html).toContain('<p>You owe</p><p class="amount owe">₹1,23,456.50</p>');
    expect(html).toContain(`<td>${dayIn('en', on)}</td><td>Charge: चीनी</td>`);
    expect(html).toMatch(/As of \d{1,2} [A-Z][a-z]{2} \d{4}, \d{1,2}:\d{2} [ap]m/);
    expect(html).toContain(`href="/s/${token}?lang=hi" lang="hi" hreflang="hi">हिन्दी</a>`);
    expect(html).toContain(`action="/s/${token}/claims?lang=en"`);
    const thanks = await form(`/s/${token}/claims?lang=en`, 'amount=100&reference=UPI123456');
    expect(thanks.statusCode).toBe(200);
    expect(thanks.body).toMatch(/^<!doctype html><html lang="en">/);
    expect(thanks.body).toContain('राव स्टोर्स will check your payment and update your statement.');
    // A language the panel does not speak is no choice: the client's stays.
    expect((await page(`/s/${token}?lang=fr`)).body).toMatch(/<html lang="hi">/);
  });

  test('is in English for an English client, word for word as before, with a switch to Hindi', async () => {
    const { token } = await clientWithLink('en');
    const html = (await page(`/s/${token}`)).body;
    expect(html).toMatch(/^<!doctype html><html lang="en">/);
    expect(html).toContain('<title>राव स्टोर्स: statement for Ravi Kumar</title>');
    expect(html).toContain('Pay ₹1,23,456.50 with UPI');
    expect(html).toContain('Scan with any UPI app, or tap the button on this phone.');
    expect(html).toContain(
      '<p class="muted">Tell the shop about a payment you made, so that they can check it.</p>',
    );
    expect(html).toContain(
      `<nav class="lang" aria-label="Language"><a href="/s/${token}?lang=hi" lang="hi" hreflang="hi">हिन्दी</a></nav>`,
    );
    const hindi = (await page(`/s/${token}?lang=hi`)).body;
    expect(hindi).toMatch(/^<!doctype html><html lang="hi">/);
    expect(hindi).toContain('<p class="muted">Ravi Kumar का खाता विवरण</p>');
  });

  test('its JSON says the client’s language', async () => {
    const hindi = await clientWithLink('hi');
    const english = await clientWithLink('en');
    for (const [{ token }, language] of [
      [hindi, 'hi'],
      [english, 'en'],
    ] as const) {
      const answer = await page(apiPaths.shared(token));
      expect(answer.json().language).toBe(language);
    }
  });
});

describe('the claim form without script', () => {
  test('thanks, and refuses bad input, in the client’s language', async () => {
    const { token } = await clientWithLink('hi');
    const thanks = await form(`/s/${token}/claims`, 'amount=500&reference=UPI%20777');
    expect(thanks.statusCode).toBe(200);
    expect(thanks.body).toMatch(/^<!doctype html><html lang="hi">/);
    expect(thanks.body).toContain('<h1>धन्यवाद</h1>');
    expect(thanks.body).toContain('राव स्टोर्स आपका भुगतान जाँचकर आपका खाता विवरण अपडेट कर देंगे।');
    expect(thanks.body).toContain(`<a href="/s/${token}?lang=hi">खाता विवरण पर वापस जाएँ</a>`);
    const bad = await form(`/s/${token}/claims?lang=hi`, 'amount=abc&reference=UPI%20777');
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toMatch(/^<!doctype html><html lang="hi">/);
    expect(bad.body).toContain('<p class="error" role="alert">कुछ जानकारी सही नहीं है</p>');
    expect(bad.body).toContain('id="amount-error"');
    expect(bad.body).toContain('value="abc"');
  });

  test('a link with 5 claims waiting says so in the language of its form', async () => {
    const { token } = await clientWithLink('hi');
    for (let i = 0; i < 5; i += 1) {
      expect((await form(`/s/${token}/claims`, `amount=1&reference=UPI-${i}000`)).statusCode).toBe(
        200,
      );
    }
    const hindi = await form(`/s/${token}/claims?lang=hi`, 'amount=1&reference=UPI-5000');
    expect(hindi.statusCode).toBe(429);
    expect(hindi.body).toMatch(/^<!doctype html><html lang="hi">/);
    expect(hindi.body).toContain('<h1>नहीं भेजा गया</h1>');
    expect(hindi.body).toContain('पहले से 5 भुगतान की सूचनाएँ');
    const english = await form(`/s/${token}/claims?lang=en`, 'amount=1&reference=UPI-5000');
    expect(english.body).toContain(`<p role="alert">${TOO_MANY_PENDING_CLAIMS_MESSAGE}</p>`);
  });
});

describe('a link that is not valid', () => {
  test('is said in the language the browser asks for, or the address names', async () => {
    const hindi = await page('/s/not-a-token', { 'accept-language': 'hi-IN,hi;q=0.9,en;q=0.5' });
    expect(hindi.statusCode).toBe(404);
    expect(hindi.body).toMatch(/^<!doctype html><html lang="hi">/);
    expect(hindi.body).toContain('<h1>लिंक मान्य नहीं है</h1>');
    expect(hindi.body).toContain('दुकानदार से नया लिंक माँगें।');
    const english = await page('/s/not-a-token');
    expect(english.body).toMatch(/^<!doctype html><html lang="en">/);
    expect(english.body).toContain(
      `<h1>Link not valid</h1><div class="card"><p>${LINK_NOT_VALID_MESSAGE}.</p><p class="muted">Ask the shop for a new link.</p>`,
    );
    const asked = await page('/s/not-a-token?lang=hi', { 'accept-language': 'en' });
    expect(asked.body).toMatch(/<html lang="hi">/);
    const posted = await form('/s/not-a-token/claims?lang=hi', 'amount=1&reference=UPI-5000');
    expect(posted.statusCode).toBe(404);
    expect(posted.body).toContain('<h1>लिंक मान्य नहीं है</h1>');
  });
});

test('the English catalogue holds the API’s own refusals word for word', () => {
  const english = statementTexts('en');
  expect(english('statement.tooManyClaims')).toBe(TOO_MANY_CLAIMS_MESSAGE);
  expect(english('statement.tooManyPending', { count: 5 })).toBe(TOO_MANY_PENDING_CLAIMS_MESSAGE);
  expect(english('statement.notValid.text')).toBe(`${LINK_NOT_VALID_MESSAGE}.`);
});
