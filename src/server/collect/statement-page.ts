import { createHash } from 'node:crypto';
import { encode } from 'uqr';
import { NOTE_MAX_LENGTH } from '../../shared/ledger-schema.ts';
import { formatInr, paiseFromAmount } from '../../shared/money.ts';
import { REFERENCE_MAX_LENGTH, type SharedStatement } from '../../shared/share-link-schema.ts';

/*
 * The page a client opens from a statement link, written by the server: no script, no app
 * bundle, one small stylesheet of its own (the app's CSP allows no inline style), the QR code
 * as inline SVG. Light or dark by the phone's setting. A few kilobytes on the wire.
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
.amount{font-size:2rem;font-weight:600;margin:.25rem 0}
.owe{color:var(--owe)}.credit{color:var(--credit)}
.pay{display:block;text-align:center;background:var(--accent);color:var(--accent-fg);padding:.75rem;border-radius:.5rem;font-weight:600;text-decoration:none;margin:1rem 0}
.qr{display:block;width:14rem;height:14rem;margin:0 auto;background:#fff;border-radius:.5rem}
table{width:100%;border-collapse:collapse;font-size:.875rem}
th,td{text-align:left;padding:.375rem .25rem;border-bottom:1px solid var(--line);vertical-align:top}
td.n,th.n{text-align:right;white-space:nowrap}
pre{white-space:pre-wrap;font:inherit;margin:0}
label{display:block;margin:.75rem 0 .25rem;font-weight:600}
input,textarea{width:100%;font:inherit;padding:.5rem;border:1px solid var(--line);border-radius:.375rem;background:var(--bg);color:var(--fg)}
button{margin-top:1rem;font:inherit;font-weight:600;padding:.625rem 1rem;border:0;border-radius:.375rem;background:var(--accent);color:var(--accent-fg)}
.error{color:var(--error)}
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
function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="robots" content="noindex"><title>${escapeHtml(title)}</title><link rel="stylesheet" href="${STATEMENT_CSS_PATH}"><link rel="icon" href="/favicon.svg" type="image/svg+xml"></head><body><main>${body}</main></body></html>`;
}

const KIND_LABELS: Record<SharedStatement['entries'][number]['kind'], string> = {
  opening: 'Opening balance',
  charge: 'Charge',
  payment: 'Payment',
  adjustment: 'Adjustment',
};

/** What the claim form shows again after a refusal: the values sent and what was wrong. */
export interface ClaimFormState {
  values: { amount: string; reference: string; note: string };
  message?: string;
  fieldErrors?: Record<string, string>;
}

function fieldError(state: ClaimFormState | undefined, field: string): string {
  const message = state?.fieldErrors?.[field];
  return message ? `<p class="error" id="${field}-error">${escapeHtml(message)}</p>` : '';
}

function described(state: ClaimFormState | undefined, field: string): string {
  return state?.fieldErrors?.[field]
    ? ` aria-invalid="true" aria-describedby="${field}-error"`
    : '';
}

function claimForm(token: string, state: ClaimFormState | undefined): string {
  const values = state?.values ?? { amount: '', reference: '', note: '' };
  const message = state?.message
    ? `<p class="error" role="alert">${escapeHtml(state.message)}</p>`
    : '';
  return `<section class="card" aria-labelledby="paid"><h2 id="paid">I have paid</h2><p class="muted">Tell the shop about a payment you made, so that they can check it.</p>${message}<form method="post" action="/s/${escapeHtml(token)}/claims"><label for="amount">Amount (₹)</label><input id="amount" name="amount" inputmode="decimal" required value="${escapeHtml(values.amount)}"${described(state, 'amount')}>${fieldError(state, 'amount')}<label for="reference">UPI or bank reference</label><input id="reference" name="reference" required minlength="4" maxlength="${REFERENCE_MAX_LENGTH}" value="${escapeHtml(values.reference)}"${described(state, 'reference')}>${fieldError(state, 'reference')}<label for="note">Note (optional)</label><textarea id="note" name="note" rows="2" maxlength="${NOTE_MAX_LENGTH}"${described(state, 'note')}>${escapeHtml(values.note)}</textarea>${fieldError(state, 'note')}<button type="submit">Send</button></form></section>`;
}

function balanceText(balancePaise: bigint): { label: string; amount: string; tone: string } {
  if (balancePaise > 0n) return { label: 'You owe', amount: formatInr(balancePaise), tone: 'owe' };
  if (balancePaise < 0n) {
    return { label: 'You have in credit', amount: formatInr(-balancePaise), tone: 'credit' };
  }
  return { label: 'Nothing to pay', amount: formatInr(0n), tone: '' };
}

/** The statement page; `form` re-shows the claim form after a refusal. */
export function statementPage(
  token: string,
  statement: SharedStatement,
  asOfText: (iso: string) => string,
  form?: ClaimFormState,
): string {
  const business = statement.businessName || 'Your statement';
  const balance = paiseFromAmount(statement.balance);
  const shown = balanceText(balance);
  const pay = statement.upi
    ? `<a class="pay" href="${escapeHtml(statement.upi.uri)}">Pay ${escapeHtml(shown.amount)} with UPI</a>${qrSvg(statement.upi.uri, `UPI QR code to pay ${shown.amount}`)}<p class="muted">Scan with any UPI app, or tap the button on this phone.</p>`
    : '';
  const rows = statement.entries
    .map((entry) => {
      const label = entry.note
        ? `${KIND_LABELS[entry.kind]}: ${entry.note}`
        : KIND_LABELS[entry.kind];
      return `<tr><td>${escapeHtml(entry.on)}</td><td>${escapeHtml(label)}</td><td class="n">${escapeHtml(formatInr(paiseFromAmount(entry.amount)))}</td><td class="n">${escapeHtml(formatInr(paiseFromAmount(entry.balanceAfter)))}</td></tr>`;
    })
    .join('');
  const entries = rows
    ? `<table><thead><tr><th scope="col">Date</th><th scope="col">What</th><th scope="col" class="n">Amount</th><th scope="col" class="n">Balance</th></tr></thead><tbody>${rows}</tbody></table>`
    : '<p class="muted">No entries in the last 90 days.</p>';
  const other = statement.otherWaysToPay
    ? `<section class="card" aria-labelledby="other"><h2 id="other">Other ways to pay</h2><pre>${escapeHtml(statement.otherWaysToPay)}</pre></section>`
    : '';
  const values = form ?? {
    values: { amount: balance > 0n ? statement.balance : '', reference: '', note: '' },
  };
  return page(
    `${business}: statement for ${statement.clientName}`,
    `<h1>${escapeHtml(business)}</h1><p class="muted">Statement for ${escapeHtml(statement.clientName)}</p><section class="card" aria-label="Balance"><p>${shown.label}</p><p class="amount ${shown.tone}">${escapeHtml(shown.amount)}</p><p class="muted">As of ${escapeHtml(asOfText(statement.asOf))}</p>${pay}</section>${other}<section class="card" aria-labelledby="entries"><h2 id="entries">Last 90 days</h2>${entries}</section>${claimForm(token, values)}`,
  );
}

export function thanksPage(businessName: string, token: string): string {
  return page(
    'Thank you',
    `<h1>Thank you</h1><div class="card"><p role="status">${escapeHtml(businessName || 'The shop')} will check your payment and update your statement.</p><p><a href="/s/${escapeHtml(token)}">Back to the statement</a></p></div>`,
  );
}

export function notFoundPage(message: string): string {
  return page(
    'Link not valid',
    `<h1>Link not valid</h1><div class="card"><p>${escapeHtml(message)}.</p><p class="muted">Ask the shop for a new link.</p></div>`,
  );
}

/** A refusal with nothing to re-show (too many claims). */
export function messagePage(title: string, message: string, token: string): string {
  return page(
    title,
    `<h1>${escapeHtml(title)}</h1><div class="card"><p role="alert">${escapeHtml(message)}</p><p><a href="/s/${escapeHtml(token)}">Back to the statement</a></p></div>`,
  );
}
