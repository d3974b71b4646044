import type { Browser, BrowserContext, Locator, Page } from '@playwright/test';
import { expectAccessible } from './accessibility.ts';
import { expect, newEmail, PASSWORD, test } from './fixtures.ts';

// Issue 22's proof: the panel in Hindi, end to end. The original's whole flow (register, add,
// details, balance, edit, delete and Undo, settings, logout) plus a payment, a reminder to a
// client who reads Hindi and the statement link's page, with Hindi chosen in the navbar; and a
// first visit whose browser asks for Hindi. On every page: no English word outside names,
// e-mails, numbers and the loan words below; the page fits a 390 px phone; axe finds nothing
// serious (in both languages).

/**
 * Latin-script words a Hindi page may show: names of things people know by these names, written
 * so on every Indian phone (payment systems, apps, file formats, "IP" of an IP address, the
 * browser and system a session was signed in from), and the unit of a file's size.
 */
const LOAN_WORDS = [
  'UPI',
  'QR',
  'WhatsApp',
  'SMS',
  'CSV',
  'UTF',
  'Excel',
  'Google',
  'Sheets',
  'IP',
  'Chrome',
  'Linux',
  'MiB',
];

const PHONE = { width: 390, height: 844 };
/**
 * A browser set to Indian English (its Accept-Language says en-IN): Hindi there is chosen, not
 * inherited. A browser set to Hindi asks for hi-IN.
 */
const ENGLISH_BROWSER = 'en-IN';
const HINDI_BROWSER = 'hi-IN';

const BUSINESS = 'Kumar Stores';
const UPI_ID = 'kumar.stores@okhdfc';
const ASHA = { fname: 'Asha', lname: 'Verma', email: 'asha@example.com' };
/** Names the pages show as they were typed (Latin script): not words to translate. */
const NAMES = ['Asha', 'Verma', 'Kumar', 'Stores', 'Ravi', 'Meera', 'Pillai'];

/** A Hindi month in full, as dates read in Hindi ("25 नवंबर 2026"). */
const HINDI_DATE =
  /\b\d{1,2} (जनवरी|फ़रवरी|फरवरी|मार्च|अप्रैल|मई|जून|जुलाई|अगस्त|सितंबर|अक्तूबर|अक्टूबर|नवंबर|दिसंबर) \d{4}/;

/**
 * Every text a person can meet on the page, each with where it is: text nodes (hidden ones
 * too: the phone's menu, the desktop's table), the texts read aloud or shown on hover
 * (aria-label, title, placeholder, alt), the buttons' values and the page's title. A part
 * marked as written in another language (`lang="en"`: a language named in itself, an English
 * client's reminder) is skipped: it is English on purpose.
 */
async function textsOf(
  page: Page,
): Promise<{ texts: { where: string; text: string }[]; bookName: string }> {
  return page.evaluate(() => {
    // Read in the same instant as the texts: the navbar's book appears when its query answers.
    const bookName = document.querySelector('[data-testid="current-book"]')?.textContent ?? '';
    const found = [{ where: 'the title', text: document.title }];
    const otherLanguage = (element: Element | null) => {
      const marked = element?.closest('[lang]');
      return (
        marked !== null && marked !== undefined && !marked.getAttribute('lang')?.startsWith('hi')
      );
    };
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    const emails = new Set<Element>();
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      if (!parent || parent.closest('script, style, noscript, template')) continue;
      if (otherLanguage(parent)) continue;
      // An address shown in pieces (so that it wraps between them) is read whole.
      const email = parent.closest('.email-address');
      if (email) {
        if (!emails.has(email)) found.push({ where: 'an e-mail', text: email.textContent ?? '' });
        emails.add(email);
        continue;
      }
      const text = node.textContent?.trim();
      if (text) found.push({ where: `<${parent.tagName.toLowerCase()}>`, text });
    }
    const attributes = ['aria-label', 'title', 'placeholder', 'alt', 'aria-roledescription'];
    for (const element of document.body.querySelectorAll('*')) {
      if (otherLanguage(element)) continue;
      const tag = element.tagName.toLowerCase();
      for (const name of attributes) {
        const text = element.getAttribute(name)?.trim();
        if (text) found.push({ where: `${name} of <${tag}>`, text });
      }
      if (element instanceof HTMLInputElement && ['submit', 'button'].includes(element.type)) {
        found.push({ where: 'value of <input>', text: element.value });
      }
    }
    return { texts: found, bookName };
  });
}

/** The Latin-script words of a text that are not names, e-mails, links or placeholders. */
function englishWords(text: string, allowed: readonly string[]): string[] {
  const stripped = text
    .replace(/https?:\/\/\S+/g, ' ')
    .replace(/\S+@\S+/g, ' ') // e-mails and UPI IDs
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, ' ') // ids
    .replace(/\{[a-z]+\}/g, ' '); // a template's placeholders, {name}
  return (stripped.match(/[A-Za-z]+/g) ?? []).filter((word) => !allowed.includes(word));
}

async function expectNoEnglish(page: Page, what: string, names: readonly string[] = NAMES) {
  // The book's name is the operator's own words (a new account's is its e-mail's first part).
  const { texts, bookName } = await textsOf(page);
  const allowed = [...LOAN_WORDS, ...names, ...(bookName.match(/[A-Za-z]+/g) ?? [])];
  const leaks = texts
    .map(({ where, text }) => ({ where, text, words: englishWords(text, allowed) }))
    .filter(({ words }) => words.length > 0)
    .map(({ where, text, words }) => `${words.join(' ')}  ←  ${where}: ${text}`);
  expect(leaks, `${what}: English words on a Hindi page`).toEqual([]);
}

/**
 * No horizontal scroll: every line of the page wraps within the phone's width. When one does
 * not, the innermost elements whose content is wider than they are say which.
 */
async function expectFits(page: Page, what: string) {
  const { scrollWidth, innerWidth, wide } = await page.evaluate(() => {
    const overflowing = [...document.body.querySelectorAll('*')].filter(
      (element) => element.scrollWidth > element.clientWidth + 1 && element.clientWidth > 0,
    );
    const innermost = overflowing.filter(
      (element) => !overflowing.some((other) => other !== element && element.contains(other)),
    );
    return {
      scrollWidth: document.scrollingElement?.scrollWidth ?? 0,
      innerWidth: window.innerWidth,
      wide: innermost.slice(0, 5).map((element) => {
        const text = element.textContent?.trim().slice(0, 60);
        return `<${element.tagName.toLowerCase()} class="${element.className}"> ${element.scrollWidth} px: ${text}`;
      }),
    };
  });
  expect(
    scrollWidth,
    `${what}: wider than ${innerWidth} px: ${wide.join('; ')}`,
  ).toBeLessThanOrEqual(innerWidth);
}

/** What every Hindi page must be: marked Hindi, wholly in Hindi, within the phone, accessible. */
async function checkHindiPage(
  page: Page,
  what: string,
  options: { names?: readonly string[]; axe?: boolean } = {},
) {
  await expect(page.locator('html')).toHaveAttribute('lang', 'hi');
  await expectNoEnglish(page, what, options.names);
  await expectFits(page, what);
  if (options.axe !== false) await expectAccessible(page, `${what} (Hindi)`);
}

/** The navbar's links and menus: behind its Menu button on a phone. */
async function openNavbar(page: Page): Promise<Locator> {
  const nav = page.getByRole('navigation').first();
  const toggle = nav.getByRole('button', { name: /^(Menu|मेन्यू)$/ });
  if ((await toggle.isVisible()) && (await toggle.getAttribute('aria-expanded')) === 'false') {
    await toggle.click();
  }
  return nav;
}

async function chooseLanguageInNavbar(page: Page, language: 'hi' | 'en') {
  const nav = await openNavbar(page);
  await nav.getByRole('combobox', { name: /^(Language|भाषा)$/ }).selectOption(language);
  await expect(page.locator('html')).toHaveAttribute('lang', language);
}

async function phoneContext(browser: Browser, locale: string): Promise<BrowserContext> {
  return browser.newContext({ viewport: PHONE, locale });
}

/** A request of the operator's, through the API (the app's origin rule wants an Origin). */
async function api(page: Page, method: 'GET' | 'POST' | 'PUT', path: string, data?: unknown) {
  const origin = new URL(page.url()).origin;
  const response = await page.request.fetch(path, { method, headers: { origin }, data });
  expect(response.ok(), `${method} ${path}: ${await response.text()}`).toBe(true);
  return response.json();
}

/** What the clients see when asked to pay (not what this story is about): through the API. */
async function setUpGettingPaid(page: Page) {
  const settings = await api(page, 'GET', '/api/collection-settings');
  await api(page, 'PUT', '/api/collection-settings', {
    ...settings,
    businessName: BUSINESS,
    upiId: UPI_ID,
  });
}

const flash = (page: Page, text: string) => page.getByRole('status').filter({ hasText: text });

test.describe('the panel in Hindi', () => {
  test.describe.configure({ timeout: 240_000 });
  test.use({ panelSettings: { disableBalanceOnAdd: false } });

  test('a first visit from a browser that asks for Hindi starts in Hindi', async ({ browser }) => {
    const context = await phoneContext(browser, HINDI_BROWSER);
    const page = await context.newPage();
    const answer = await page.goto('/login');
    // Written by the server into the page, before any script ran.
    expect(await answer?.text()).toMatch(/<html lang="hi"/);
    await expect(page.getByRole('heading', { name: 'लॉग इन', level: 1 })).toBeVisible();
    await checkHindiPage(page, 'login, first visit');
    await page.goto('/register');
    await expect(page.getByRole('heading', { name: 'रजिस्टर करें', level: 1 })).toBeVisible();
    await checkHindiPage(page, 'register, first visit');
    await context.close();
  });

  test('the whole flow with Hindi chosen in the navbar: register, a client from add to delete and Undo, a payment, a reminder, the statement link, settings, logout', async ({
    browser,
  }) => {
    const context = await phoneContext(browser, ENGLISH_BROWSER);
    const page = await context.newPage();
    await page.goto('/register');
    await expect(page.getByRole('heading', { name: 'Register', level: 1 })).toBeVisible();
    await chooseLanguageInNavbar(page, 'hi');
    await expect(page.getByRole('heading', { name: 'रजिस्टर करें', level: 1 })).toBeVisible();
    await checkHindiPage(page, 'register');

    // Register: the account is made in Hindi.
    const email = newEmail('hindi');
    const register = page.getByRole('form', { name: 'रजिस्टर करें' });
    await register.getByLabel('ईमेल').fill(email);
    await register.getByLabel('पासवर्ड').fill(PASSWORD);
    await register.getByRole('button', { name: 'रजिस्टर करें' }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    const session = await api(page, 'GET', '/api/auth/get-session');
    expect(session.user.language).toBe('hi');
    await expect(page.getByRole('heading', { name: 'ग्राहक', level: 1 })).toBeVisible();
    await checkHindiPage(page, 'dashboard, empty', { names: [] });

    // Add a client: the form's language starts on the operator's.
    await page.getByRole('link', { name: 'नया ग्राहक' }).click();
    const add = page.getByRole('form', { name: 'ग्राहक जोड़ें' });
    await add.getByRole('button', { name: 'सहेजें' }).click();
    await expect(add.getByText('पहला नाम ज़रूरी है')).toBeVisible();
    await expect(add.getByRole('combobox', { name: 'भाषा' })).toHaveValue('hi');
    await checkHindiPage(page, 'add client, with its errors', { names: [] });
    await add.getByLabel('पहला नाम').fill(ASHA.fname);
    await add.getByLabel('उपनाम').fill(ASHA.lname);
    await add.getByLabel('ईमेल').fill(ASHA.email);
    await add.getByLabel('फ़ोन').fill('98470 12345');
    await add.getByLabel('बकाया').fill('123456.5');
    await add.getByRole('button', { name: 'सहेजें' }).click();
    await expect(flash(page, 'ग्राहक सफलतापूर्वक जोड़ा गया')).toBeVisible();
    await expect(page).toHaveURL(/\/dashboard$/);
    const ashaCard = page.getByRole('list', { name: 'ग्राहक' }).getByRole('listitem').first();
    await expect(ashaCard).toContainText('Asha Verma');
    await expect(ashaCard).toContainText('₹1,23,456.50');
    await expect(page.getByTestId('total-owed')).toHaveText('कुल बकाया : ₹1,23,456.50');
    await checkHindiPage(page, 'dashboard with a client');
    await page.getByRole('button', { name: 'इम्पोर्ट' }).click();
    const importing = page.getByRole('dialog', { name: 'ग्राहक इम्पोर्ट करें' });
    await expect(importing.getByLabel('CSV फ़ाइल')).toBeVisible();
    await checkHindiPage(page, 'import dialog');
    await importing.getByRole('button', { name: 'बंद करें' }).click();
    await expect(importing).toHaveCount(0);

    // Details
    await ashaCard.getByRole('link', { name: /Asha/ }).first().click();
    await expect(page.getByRole('heading', { name: 'Asha Verma', level: 1 })).toBeVisible();
    await expect(page.getByTestId('client-language')).toHaveText('भाषा: हिन्दी');
    await expect(page.getByText('पिछला भुगतान: कभी नहीं')).toBeVisible();
    await checkHindiPage(page, 'client details');

    // The balance, from the pencil.
    await page.getByRole('button', { name: 'बकाया बदलें' }).click();
    await page.getByLabel('नया बकाया').fill('1234.50');
    await checkHindiPage(page, 'client details, balance form', { axe: false });
    await page.getByRole('button', { name: 'अपडेट करें' }).click();
    await expect(flash(page, 'बकाया अपडेट हो गया')).toBeVisible();
    const balance = page.getByRole('heading', { name: /^बकाया:/ });
    await expect(balance).toContainText('₹1,234.50');

    // A payment, dated two days back: the history reads the date in Hindi.
    await page.getByRole('button', { name: 'भुगतान दर्ज करें' }).click();
    const payment = page.getByRole('form', { name: 'भुगतान दर्ज करें' });
    await payment.getByLabel('राशि (₹)').fill('500');
    await payment.getByLabel('तारीख', { exact: true }).fill('2026-11-25');
    await checkHindiPage(page, 'client details, payment form');
    await payment.getByRole('button', { name: 'भुगतान सहेजें' }).click();
    await expect(flash(page, 'भुगतान दर्ज हो गया')).toBeVisible();
    await expect(balance).toContainText('₹734.50');
    const history = page.getByRole('region', { name: 'लेन-देन का इतिहास' });
    // On a phone the history is a list of cards (the table is for wider screens).
    await expect(history.getByText('25 नवंबर 2026').filter({ visible: true })).toBeVisible();
    await expect(page.getByText(/^पिछला भुगतान: /)).toHaveText('पिछला भुगतान: 25 नवंबर 2026');
    await checkHindiPage(page, 'client details with its history');

    // The statement of account, as the operator prints it.
    await page.getByRole('link', { name: 'खाता विवरण', exact: true }).click();
    await expect(page.getByText('₹734.50').first()).toBeVisible();
    await expect(page.locator('body')).toContainText(HINDI_DATE);
    await checkHindiPage(page, 'statement of account');
    await page.goBack();

    // A reminder: Asha reads Hindi, so it is the Hindi template, filled in for her.
    await setUpGettingPaid(page);
    await page.getByRole('button', { name: 'Asha Verma को रिमाइंडर भेजें' }).click();
    const remind = page.getByRole('dialog', { name: 'Asha Verma को रिमाइंडर' });
    const message = remind.getByLabel('संदेश');
    await expect(message).toHaveValue(
      'नमस्ते Asha Verma जी, Kumar Stores की ओर से रिमाइंडर: आपका ₹734.50 बकाया है। अपना खाता विवरण देखें और UPI से भुगतान करें: (खाता विवरण का लिंक)',
    );
    await expect(message).toHaveAttribute('lang', 'hi');
    await checkHindiPage(page, 'remind dialog');
    await remind.getByRole('button', { name: 'WhatsApp' }).click();
    const open = remind.getByRole('link', { name: 'WhatsApp खोलें' });
    await expect(open).toBeVisible();
    const whatsapp = new URL((await open.getAttribute('href')) ?? '');
    expect(`${whatsapp.origin}${whatsapp.pathname}`).toBe('https://wa.me/919847012345');
    const text = whatsapp.searchParams.get('text') ?? '';
    const origin = new URL(page.url()).origin;
    expect(text).toMatch(
      new RegExp(
        `^नमस्ते Asha Verma जी, Kumar Stores की ओर से रिमाइंडर: आपका ₹734\\.50 बकाया है। अपना खाता विवरण देखें और UPI से भुगतान करें: ${origin}/s/[A-Za-z0-9_-]{22,}$`,
      ),
    );
    await checkHindiPage(page, 'remind dialog, ready to open WhatsApp');
    await remind.getByRole('button', { name: 'बंद करें' }).last().click();
    await expect(page.getByRole('list', { name: 'भेजे गए रिमाइंडर' })).toContainText('WhatsApp');

    // The statement link, on Asha's phone (a browser that asks for English): in her language.
    const link = text.slice(text.indexOf(`${origin}/s/`));
    const hers = await phoneContext(browser, ENGLISH_BROWSER);
    const statement = await hers.newPage();
    await statement.goto(link);
    await expect(statement.getByRole('heading', { name: BUSINESS, level: 1 })).toBeVisible();
    await expect(statement.getByText('Asha Verma का खाता विवरण')).toBeVisible();
    const owed = statement.getByRole('region', { name: 'बकाया' });
    await expect(owed).toContainText('आपका बकाया');
    await expect(owed.locator('.amount')).toHaveText('₹734.50');
    await expect(owed.getByRole('link', { name: 'UPI से ₹734.50 का भुगतान करें' })).toBeVisible();
    await expect(statement.locator('body')).toContainText('25 नवंबर 2026');
    await checkHindiPage(statement, 'statement link');
    // Her switch to English.
    await statement
      .getByRole('navigation', { name: 'भाषा' })
      .getByRole('link', { name: 'English' })
      .click();
    await expect(statement.locator('html')).toHaveAttribute('lang', 'en');
    await expect(statement.getByRole('region', { name: 'Balance' })).toContainText('You owe');
    await expect(statement.locator('body')).toContainText('25 Nov 2026');
    await expectFits(statement, 'statement link in English');
    await expectAccessible(statement, 'statement link (English)');
    // And back.
    await statement
      .getByRole('navigation', { name: 'Language' })
      .getByRole('link', { name: 'हिन्दी' })
      .click();
    await expect(statement.locator('html')).toHaveAttribute('lang', 'hi');
    await hers.close();

    // Edit
    await page.getByRole('link', { name: 'बदलें', exact: true }).click();
    const edit = page.getByRole('form', { name: 'ग्राहक बदलें' });
    await expect(edit.getByLabel('पहला नाम')).toHaveValue('Asha');
    await expect(edit.getByRole('combobox', { name: 'भाषा' })).toHaveValue('hi');
    await checkHindiPage(page, 'edit client');
    await edit.getByLabel('फ़ोन').fill('+91 91234-56789');
    await edit.getByRole('button', { name: 'सहेजें' }).click();
    await expect(flash(page, 'बदलाव सहेज लिए गए')).toBeVisible();
    await expect(page.getByText('फ़ोन: 91234 56789')).toBeVisible();

    // Delete, then Undo.
    await page.getByRole('button', { name: 'हटाएँ' }).click();
    const confirm = page.getByRole('dialog', { name: 'क्या आपको यकीन है?' });
    await expect(confirm).toContainText('Asha Verma, जिन पर ₹734.50 बकाया है');
    await checkHindiPage(page, 'delete dialog');
    await confirm.getByRole('button', { name: 'हटाएँ' }).click();
    const removed = flash(page, 'ग्राहक हटाया गया');
    await expect(removed).toBeVisible();
    await expect(page.getByText('कोई ग्राहक नहीं मिला')).toBeVisible();
    await checkHindiPage(page, 'dashboard after a delete, with Undo', { axe: false });
    await removed.getByRole('button', { name: 'पहले जैसा करें' }).click();
    await expect(flash(page, 'ग्राहक वापस आ गया')).toBeVisible();
    await expect(
      page.getByRole('list', { name: 'ग्राहक' }).getByRole('listitem').first(),
    ).toContainText('₹734.50');

    // The day's collection round.
    await (await openNavbar(page)).getByRole('link', { name: 'वसूली' }).click();
    await expect(page.getByRole('heading', { name: 'वसूली', level: 1 })).toBeVisible();
    await checkHindiPage(page, 'collect');

    // Settings: the panel's, the account's (its language), getting paid with the Hindi reminder.
    await (await openNavbar(page)).getByRole('link', { name: 'सेटिंग्स' }).click();
    const gettingPaid = page.getByRole('form', { name: 'भुगतान कैसे मिले' });
    await expect(gettingPaid.getByLabel('व्यवसाय का नाम')).toHaveValue(BUSINESS);
    await expect(gettingPaid.getByLabel('हिन्दी में रिमाइंडर का संदेश')).toHaveValue(/^नमस्ते \{name\} जी/);
    await expect(gettingPaid.getByTestId('preview-message')).toHaveText(/^नमस्ते Asha Verma जी/);
    await checkHindiPage(page, 'settings');

    // Logout: the sign-in page stays in Hindi (this browser keeps the choice).
    await (await openNavbar(page)).getByRole('button', { name: 'लॉग आउट' }).click();
    await expect(page).toHaveURL(/\/login$/);
    await expect(flash(page, 'लॉग आउट हो गया')).toBeVisible();
    await checkHindiPage(page, 'login after logout', { names: [] });
    await context.close();
  });
});

test.describe('the main pages in both languages (axe)', () => {
  test.describe.configure({ timeout: 240_000 });
  test.use({ panelSettings: { disableBalanceOnAdd: false } });

  for (const language of ['en', 'hi'] as const) {
    test(`login, dashboard, a client, edit, collect, settings and the statement link in ${language === 'hi' ? 'Hindi' : 'English'}`, async ({
      browser,
    }) => {
      const context = await browser.newContext({
        viewport: { width: 1280, height: 800 },
        locale: language === 'hi' ? HINDI_BROWSER : ENGLISH_BROWSER,
      });
      const page = await context.newPage();
      const check = async (what: string) => {
        await expect(page.locator('html')).toHaveAttribute('lang', language);
        if (language === 'hi') await expectNoEnglish(page, what);
        await expectAccessible(page, `${what} (${language})`);
      };
      await page.goto('/login');
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(
        language === 'hi' ? 'लॉग इन' : 'Login',
      );
      await check('login');

      // Seeded through the API: the pages are the subject here.
      const signUp = await page.request.post('/api/auth/sign-up/email', {
        data: { email: newEmail('axe'), password: PASSWORD, language },
      });
      expect(signUp.status()).toBe(200);
      await page.goto('/dashboard');
      const client = await api(page, 'POST', '/api/clients', {
        fname: 'Ravi',
        lname: 'Kumar',
        email: 'ravi@example.com',
        phone: '98470 12345',
        balance: '123456.50',
        language,
      });
      await api(page, 'POST', `/api/clients/${client.id}/entries`, {
        kind: 'payment',
        amount: '6000',
        on: '2026-11-25',
      });
      await setUpGettingPaid(page);
      await page.reload();
      await expect(page.getByTestId('total-owed')).toContainText('₹1,17,456.50');
      await check('dashboard');
      await page.goto(`/client/${client.id}`);
      await expect(
        page.getByText(language === 'hi' ? '25 नवंबर 2026' : '25 Nov 2026').first(),
      ).toBeVisible();
      await check('client details');
      await page.goto(`/client/edit/${client.id}`);
      await expect(
        page.getByRole('form', { name: language === 'hi' ? 'ग्राहक बदलें' : 'Edit Client' }),
      ).toBeVisible();
      await check('edit client');
      await page.goto('/collect');
      await expect(
        page.getByRole('heading', { level: 1, name: language === 'hi' ? 'वसूली' : 'Collect' }),
      ).toBeVisible();
      await check('collect');
      await page.goto('/settings');
      await expect(
        page.getByLabel(language === 'hi' ? 'व्यवसाय का नाम' : 'Business name'),
      ).toHaveValue(BUSINESS);
      await check('settings');

      const { url } = await api(page, 'POST', `/api/clients/${client.id}/share-links`, {});
      const phone = await phoneContext(browser, ENGLISH_BROWSER);
      const statement = await phone.newPage();
      await statement.goto(url);
      await expect(statement.locator('html')).toHaveAttribute('lang', language);
      if (language === 'hi') await expectNoEnglish(statement, 'statement link');
      await expectFits(statement, 'statement link');
      await expectAccessible(statement, `statement link (${language})`);
      await phone.close();
      await context.close();
    });
  }
});
