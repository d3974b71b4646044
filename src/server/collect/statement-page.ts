import { createHash } from 'node:crypto';
import { encode } from 'uqr';
import { LANGUAGE_NAMES, LANGUAGES } from '../../shared/languages.ts';
import { NOTE_MAX_LENGTH } from '../../shared/ledger-schema.ts';
import { formatInr, formatSignedInr, paiseFromAmount } from '../../shared/money.ts';
import {
  MAX_PENDING_CLAIMS_PER_LINK,
  REFERENCE_MAX_LENGTH,
  SHARED_ENTRY_DAYS,
  type SharedStatement,
} from '../../shared/share-link-schema.ts';
import type { StatementTextId } from '../i18n/statement-texts.ts';
import type { PageLanguage } from './statement-language.ts';

/*
 * The page a client opens from a statement link, written by the server: no script, no app
 * bundle, one small stylesheet of its own (the app's CSP allows no inline style), the QR code
 * as inline SVG. Light or dark by the phone's setting. A few kilobytes on the wire. In the
 * client's language, with a link to the other (`?lang=`), which the pages after it keep.
 */

// Muted text is darker than Bootstrap's #6c757d, which falls under 4.5:1 on the light --bg.
export const STATEMENT_CSS = `:root{color-scheme:light dark;--bg:#f8f9fa;--fg:#212529;--muted:#5c636a;--card:#fff;--line:#dee2e6;--accent:#0d6efd;--accent-fg:#fff;--owe:#b02a37;--credit:#146c43;--error:#b02a37}
@media (prefers-color-scheme:dark){:root{--bg:#212529;--fg:#dee2e6;--muted:#adb5bd;--card:#2b3035;--line:#495057;--accent:#6ea8fe;--accent-fg:#000;--owe:#ea868f;--credit:#75b798;--error:#ea868f}}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--fg);font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans",sans-serif}
main{max-width:36rem;margin:0 auto;padding:1rem}
h1{font-size:1.5rem;margin:0 0 .25rem}
h2{font-size:1.15rem;margin:1.5rem 0 .5rem}
.card{background:var(--card);border:1px solid var(--line);border-radius:.5rem;padding:1rem;margin:1rem 0}
.muted{color:var(--muted);font-size:.875rem}
.amount{font-size:clamp(1.25rem,8vw,2rem);font-weight:600;margin:.25rem 0}
.owe{color:var(--owe)}.credit{color:var(--credit)}
.pay{display:block;text-align:center;background:var(--accent);color:var(--accent-fg);padding:.75rem;border-radius:.5rem;font-weight:600;text-decoration:none;margin:1rem 0}
.qr{display:block;width:14rem;height:14rem;margin:0 auto;background:#fff;border-radius:.5rem}
.scroll{overflow-x:auto}
table{width:100%;border-collapse:collapse;font-size:.875rem}
th,td{text-align:left;padding:.375rem .25rem;border-bottom:1px solid var(--line);vertical-align:top}
td.n,th.n{text-align:right;white-space:nowrap}
pre{white-space:pre-wrap;font:inherit;margin:0}
label{display:block;margin:.75rem 0 .25rem;font-weight:600}
input,textarea{width:100%;font:inherit;padding:.5rem;border:1px solid var(--line);border-radius:.375rem;background:var(--bg);color:var(--fg)}
button{margin-top:1rem;font:inherit;font-weight:600;padding:.625rem 1rem;border:0;border-radius:.375rem;background:var(--accent);color:var(--accent-fg)}
.error{color:var(--error)}
.lang{text-align:right;margin:0;font-size:.875rem}
@media (max-width:26rem){main{padding:.75rem}.card{padding:.75rem}table{font-size:.8125rem}th,td{padding:.375rem .125rem}}
`;

/** Where the stylesheet is served; its digest in the name lets browsers keep it for a year. */
export const STATEMENT_CSS_PATH = `/statement-${createHash('sha256')
  .update(STATEMENT_CSS)
  .digest('hex')
  .slice(0, 12)}.css`;

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);
}

/**
 * A QR code as SVG: each row's dark modules as runs, one path, in module units with the
 * 4-module quiet zone the standard asks for. A third the size of uqr's own SVG.
 */
export function qrSvg(text: string, label: string): string {
  const key = `${label}\n${text}`;
  const cached = drawnCodes.get(key);
  if (cached !== undefined) return cached;
  const svg = drawQr(text, label);
  if (drawnCodes.size >= DRAWN_CODES_KEPT) {
    const oldest = drawnCodes.keys().next().value;
    if (oldest !== undefined) drawnCodes.delete(oldest);
  }
  drawnCodes.set(key, svg);
  return svg;
}

/**
 * Codes already drawn, by label and text: encoding one (trying the eight masks) takes about
 * 2 ms of CPU, most of a page's time, and a link opened again shows the same code until the
 * balance changes. A few hundred are a few hundred KB.
 */
const DRAWN_CODES_KEPT = 500;
const drawnCodes = new Map<string, string>();

function drawQr(text: string, label: string): string {
  const { data, size } = encode(text, { ecc: 'M', border: 4 });
  let path = '';
  data.forEach((row, y) => {
    for (let x = 0; x < row.length; ) {
      if (!row[x]) {
        x += 1;
        continue;
      }
      let end = x;
      while (row[end]) end += 1;
      path += `M${x} ${y}h${end - x}v1h${x - end}z`;
      x = end;
    }
  });
  return `<svg class="qr" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${size} ${size}" role="img" aria-label="${escapeHtml(label)}" shape-rendering="crispEdges"><rect width="${size}" height="${size}" fill="#fff"/><path fill="#000" d="${path}"/></svg>`;
}

// The app's own icon: without one named, browsers ask for /favicon.ico, which is a 404.
function page(shown: PageLanguage, title: string, body: string): string {
  return `<!doctype html><html lang="${shown.language}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="robots" content="noindex"><title>${escapeHtml(title)}</title><link rel="stylesheet" href="${STATEMENT_CSS_PATH}"><link rel="icon" href="/favicon.svg" type="image/svg+xml"></head><body><main>${body}</main></body></html>`;
}

const KIND_TEXTS: Record<SharedStatement['entries'][number]['kind'], StatementTextId> = {
  opening: 'statement.kind.opening',
  charge: 'statement.kind.charge',
  payment: 'statement.kind.payment',
  adjustment: 'statement.kind.adjustment',
};

/** A page of a statement link, in the language shown: the pages after it keep that language. */
function linkPath(token: string, shown: PageLanguage, path = ''): string {
  return `/s/${encodeURIComponent(token)}${path}?lang=${shown.language}`;
}

/** The statement in each other language, each named in itself ("हिन्दी"). */
function languageSwitch(token: string, shown: PageLanguage): string {
  const links = LANGUAGES.filter((language) => language !== shown.language)
    .map(
      (language) =>
        `<a href="/s/${escapeHtml(encodeURIComponent(token))}?lang=${language}" lang="${language}" hreflang="${language}">${escapeHtml(LANGUAGE_NAMES[language])}</a>`,
    )
    .join(' · ');
  return `<nav class="lang" aria-label="${escapeHtml(shown.t('statement.language'))}">${links}</nav>`;
}

/** What the claim form shows again after a refusal: the values sent and what was wrong. */
export interface ClaimFormState {
  values: { amount: string; reference: string; note: string };
  message?: string;
  fieldErrors?: Record<string, string>;
}

function fieldError(shown: PageLanguage, state: ClaimFormState | undefined, field: string): string {
  const message = state?.fieldErrors?.[field];
  return message
    ? `<p class="error" id="${field}-error">${escapeHtml(shown.t.field(message))}</p>`
    : '';
}

function described(state: ClaimFormState | undefined, field: string): string {
  return state?.fieldErrors?.[field]
    ? ` aria-invalid="true" aria-describedby="${field}-error"`
    : '';
}

function claimForm(token: string, shown: PageLanguage, state: ClaimFormState | undefined): string {
  const { t } = shown;
  const values = state?.values ?? { amount: '', reference: '', note: '' };
  const message = state?.message
    ? `<p class="error" role="alert">${escapeHtml(state.message)}</p>`
    : '';
  return `<section class="card" aria-labelledby="paid"><h2 id="paid">${escapeHtml(t('statement.claim.title'))}</h2><p class="muted">${escapeHtml(t('statement.claim.intro'))}</p>${message}<form method="post" action="${escapeHtml(linkPath(token, shown, '/claims'))}"><label for="amount">${escapeHtml(t('statement.claim.amount'))}</label><input id="amount" name="amount" inputmode="decimal" required value="${escapeHtml(values.amount)}"${described(state, 'amount')}>${fieldError(shown, state, 'amount')}<label for="reference">${escapeHtml(t('statement.claim.reference'))}</label><input id="reference" name="reference" required minlength="4" maxlength="${REFERENCE_MAX_LENGTH}" value="${escapeHtml(values.reference)}"${described(state, 'reference')}>${fieldError(shown, state, 'reference')}<label for="note">${escapeHtml(t('statement.claim.note'))}</label><textarea id="note" name="note" rows="2" maxlength="${NOTE_MAX_LENGTH}"${described(state, 'note')}>${escapeHtml(values.note)}</textarea>${fieldError(shown, state, 'note')}<button type="submit">${escapeHtml(t('statement.claim.send'))}</button></form></section>`;
}

function balanceText(
  shown: PageLanguage,
  balancePaise: bigint,
): { label: string; amount: string; tone: string } {
  const { t } = shown;
  if (balancePaise > 0n) {
    return { label: t('statement.owe'), amount: formatInr(balancePaise), tone: 'owe' };
  }
  if (balancePaise < 0n) {
    return { label: t('statement.credit'), amount: formatInr(-balancePaise), tone: 'credit' };
  }
  return { label: t('statement.nothingToPay'), amount: formatInr(0n), tone: '' };
}

/** The claim form's refusal, said above it in the language shown. */
export function invalidClaimForm(
  shown: PageLanguage,
  values: ClaimFormState['values'],
  fieldErrors: Record<string, string>,
): ClaimFormState {
  return { values, message: shown.t('statement.claim.invalid'), fieldErrors };
}

/** The statement page; `form` re-shows the claim form after a refusal. */
export function statementPage(
  token: string,
  statement: SharedStatement,
  shown: PageLanguage,
  form?: ClaimFormState,
): string {
  const { t } = shown;
  const business = statement.businessName || t('statement.yourStatement');
  const balance = paiseFromAmount(statement.balance);
  const balanceShown = balanceText(shown, balance);
  const amount = { amount: balanceShown.amount };
  const pay = statement.upi
    ? `<a class="pay" href="${escapeHtml(statement.upi.uri)}">${escapeHtml(t('statement.payWithUpi', amount))}</a>${qrSvg(statement.upi.uri, t('statement.upiQr', amount))}<p class="muted">${escapeHtml(t('statement.scan'))}</p>`
    : '';
  const rows = statement.entries
    .map((entry) => {
      const kind = t(KIND_TEXTS[entry.kind]);
      const label = entry.note ? `${kind}: ${entry.note}` : kind;
      return `<tr><td>${escapeHtml(shown.day(entry.on))}</td><td>${escapeHtml(label)}</td><td class="n">${escapeHtml(formatSignedInr(paiseFromAmount(entry.amount)))}</td><td class="n">${escapeHtml(formatSignedInr(paiseFromAmount(entry.balanceAfter), ''))}</td></tr>`;
    })
    .join('');
  // What the client owed before the first line shown: without it the first balance jumps
  // from nothing, and the client cannot follow how the rows reach what they owe.
  const first = statement.entries[0];
  const broughtForward = first
    ? paiseFromAmount(first.balanceAfter) - paiseFromAmount(first.amount)
    : 0n;
  const broughtForwardRow =
    broughtForward === 0n
      ? ''
      : `<tr><td></td><td>${escapeHtml(t('statement.broughtForward'))}</td><td class="n"></td><td class="n">${escapeHtml(formatSignedInr(broughtForward, ''))}</td></tr>`;
  const days = { days: SHARED_ENTRY_DAYS };
  const entries = rows
    ? // On a phone a balance in lakhs fits; one in crores scrolls inside its card, not the page.
      `<div class="scroll" tabindex="0"><table><thead><tr><th scope="col">${escapeHtml(t('statement.column.date'))}</th><th scope="col">${escapeHtml(t('statement.column.what'))}</th><th scope="col" class="n">${escapeHtml(t('statement.column.amount'))}</th><th scope="col" class="n">${escapeHtml(t('statement.column.balance'))}</th></tr></thead><tbody>${broughtForwardRow}${rows}</tbody></table></div>`
    : `<p class="muted">${escapeHtml(t('statement.noEntries', days))}</p>`;
  const other = statement.otherWaysToPay
    ? `<section class="card" aria-labelledby="other"><h2 id="other">${escapeHtml(t('statement.otherWays'))}</h2><pre>${escapeHtml(statement.otherWaysToPay)}</pre></section>`
    : '';
  const values = form ?? {
    values: { amount: balance > 0n ? statement.balance : '', reference: '', note: '' },
  };
  const name = { name: statement.clientName };
  return page(
    shown,
    t('statement.title', { business, ...name }),
    `${languageSwitch(token, shown)}<h1>${escapeHtml(business)}</h1><p class="muted">${escapeHtml(t('statement.for', name))}</p><section class="card" aria-label="${escapeHtml(t('statement.balance'))}"><p>${escapeHtml(balanceShown.label)}</p><p class="amount ${balanceShown.tone}">${escapeHtml(balanceShown.amount)}</p><p class="muted">${escapeHtml(t('statement.asOf', { time: shown.time(statement.asOf) }))}</p>${pay}</section>${other}<section class="card" aria-labelledby="entries"><h2 id="entries">${escapeHtml(t('statement.lastDays', days))}</h2>${entries}</section>${claimForm(token, shown, values)}`,
  );
}

function backLink(token: string, shown: PageLanguage): string {
  return `<p><a href="${escapeHtml(linkPath(token, shown))}">${escapeHtml(shown.t('statement.back'))}</a></p>`;
}

export function thanksPage(shown: PageLanguage, businessName: string, token: string): string {
  const { t } = shown;
  const title = t('statement.thanks.title');
  const business = businessName || t('statement.thanks.theShop');
  return page(
    shown,
    title,
    `<h1>${escapeHtml(title)}</h1><div class="card"><p role="status">${escapeHtml(t('statement.thanks.text', { business }))}</p>${backLink(token, shown)}</div>`,
  );
}

/** Unknown, expired and revoked links alike. */
export function notFoundPage(shown: PageLanguage): string {
  const { t } = shown;
  const title = t('statement.notValid.title');
  return page(
    shown,
    title,
    `<h1>${escapeHtml(title)}</h1><div class="card"><p>${escapeHtml(t('statement.notValid.text'))}</p><p class="muted">${escapeHtml(t('statement.notValid.ask'))}</p></div>`,
  );
}

/** A claim refused with nothing to re-show: too many waiting on the link, or from the network. */
export function notSentPage(
  shown: PageLanguage,
  why: 'too-many' | 'rate-limited',
  token: string,
): string {
  const { t } = shown;
  const title = t('statement.notSent');
  const message =
    why === 'too-many'
      ? t('statement.tooManyPending', { count: MAX_PENDING_CLAIMS_PER_LINK })
      : t('statement.tooManyClaims');
  return page(
    shown,
    title,
    `<h1>${escapeHtml(title)}</h1><div class="card"><p role="alert">${escapeHtml(message)}</p>${backLink(token, shown)}</div>`,
  );
}
