/**
 * A browser's user agent in a few words ("Chrome on Linux"), for the operator's list of their
 * sessions: enough to tell their laptop from their phone, not a full parser. Order matters:
 * Edge and Opera also say "Chrome", Chrome also says "Safari", Android also says "Linux".
 */
const BROWSERS: [RegExp, string][] = [
  [/\bEdg(?:e|A|iOS)?\//, 'Edge'],
  [/\bOPR\/|\bOpera\b/, 'Opera'],
  [/\bSamsungBrowser\//, 'Samsung Internet'],
  [/\bFirefox\/|\bFxiOS\//, 'Firefox'],
  [/\bChromium\//, 'Chromium'],
  [/Chrome\/|\bCriOS\//, 'Chrome'],
  // A space must end the version: `[\d.]+` then backtracks no further, so the match stays linear.
  [/\bVersion\/[\d.]+ .*\bSafari\//, 'Safari'],
];

const SYSTEMS: [RegExp, string][] = [
  [/\bWindows\b/, 'Windows'],
  [/\bAndroid\b/, 'Android'],
  [/\biPad\b/, 'iPadOS'],
  [/\biPhone\b|\biPod\b/, 'iOS'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bMac OS X\b|\bMacintosh\b/, 'macOS'],
  [/\bLinux\b/, 'Linux'],
];

/** How much of an agent that names no known browser is shown, in characters. */
const RAW_AGENT_LENGTH = 60;

export const UNKNOWN_DEVICE = 'Unknown device';

function firstMatch(agent: string, table: [RegExp, string][]): string | undefined {
  return table.find(([pattern]) => pattern.test(agent))?.[1];
}

/**
 * How much of an agent is read. Real ones are a few hundred characters; better-auth stores
 * whatever the header held (up to 16 KiB), and no pattern should ever scan that much.
 */
const READ_AGENT_LENGTH = 512;

export function describeUserAgent(agent: string | null | undefined): string {
  const text = agent?.slice(0, READ_AGENT_LENGTH).trim() ?? '';
  if (!text) return UNKNOWN_DEVICE;
  const browser = firstMatch(text, BROWSERS);
  const system = firstMatch(text, SYSTEMS);
  if (browser && system) return `${browser} on ${system}`;
  if (browser) return browser;
  if (system) return `A browser on ${system}`;
  // A script or tool (curl/8.5.0): what it calls itself, cut short by whole characters.
  const characters = Array.from(text);
  return characters.length > RAW_AGENT_LENGTH
    ? `${characters.slice(0, RAW_AGENT_LENGTH).join('')}…`
    : text;
}
