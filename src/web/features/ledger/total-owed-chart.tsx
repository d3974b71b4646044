import { useEffect, useRef, useState } from 'react';
import { INTL_LOCALES, type Language } from '../../../shared/languages.ts';
import type { TotalsHistory } from '../../../shared/ledger-schema.ts';
import { paiseFromAmount } from '../../../shared/money.ts';
import { Money } from '../../components/money.tsx';
import { T, useT } from '../../i18n/translate.tsx';
import { useLanguage } from '../../i18n/use-language.ts';
import { formatDay } from '../../lib/dates.ts';

const CHART_HEIGHT = 140;

/**
 * The axes' words in the chosen language: amounts short ("₹1.2L", "₹1.2 लाख") and days
 * without the year; Hindi names the month in full, as formatDay does ("12 सितंबर"), so its
 * ticks are given more room.
 */
function axisFormats(language: Language) {
  const locale = INTL_LOCALES[language];
  return {
    amounts: (ticks: number[]) => amountLabels(language, ticks),
    day: new Intl.DateTimeFormat(locale, {
      day: 'numeric',
      month: language === 'hi' ? 'long' : 'short',
      timeZone: 'UTC',
    }),
    daySpace: language === 'hi' ? 80 : 50,
  };
}

const CRORE = 10_000_000;
const THOUSAND_CRORE = 1_000 * CRORE;

/**
 * The amount axis's labels, short, but never two alike: a narrow range (₹12.40Cr to ₹12.45Cr)
 * takes more decimals, and past three the amount in full.
 */
export function amountLabels(language: Language, ticks: number[]): string[] {
  const locale = INTL_LOCALES[language];
  // Past 1,000 crore, English's compact form reads "₹1KCr" and "₹1LCr": said in crore instead
  // ("₹1,000Cr"), as Indian English writes it. Hindi's अरब and खरब are its own words.
  const inCrore =
    language === 'en' && Math.max(...ticks.map((tick) => Math.abs(tick))) >= THOUSAND_CRORE;
  for (const digits of [1, 2, 3]) {
    const options = { style: 'currency', currency: 'INR', minimumFractionDigits: 0 } as const;
    const short = new Intl.NumberFormat(locale, {
      ...options,
      notation: 'compact',
      maximumFractionDigits: digits,
    });
    const crore = new Intl.NumberFormat(locale, { ...options, maximumFractionDigits: digits });
    const labels = ticks.map((tick) =>
      inCrore && tick !== 0 ? `${crore.format(tick / CRORE)}Cr` : short.format(tick),
    );
    if (new Set(labels).size === labels.length) return labels;
  }
  const full = new Intl.NumberFormat(locale, { style: 'currency', currency: 'INR' });
  return ticks.map((tick) => full.format(tick));
}

/** The theme's colour of a CSS variable at the time the chart is drawn. */
function cssColor(name: string): string {
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim() || '#888';
}

interface ChartColors {
  text: string;
  grid: string;
  line: string;
}

function themeColors(): ChartColors {
  return {
    text: cssColor('--bs-body-color'),
    grid: cssColor('--bs-border-color'),
    line: cssColor('--bs-primary'),
  };
}

/** The theme's colours, again on each change of theme: a canvas does not follow CSS. */
function useChartColors(): ChartColors {
  const [colors, setColors] = useState(themeColors);
  useEffect(() => {
    const observer = new MutationObserver(() => setColors(themeColors()));
    observer.observe(document.documentElement, { attributeFilter: ['data-bs-theme'] });
    return () => observer.disconnect();
  }, []);
  return colors;
}

/**
 * The line of the total owed, one point a day. uPlot is fetched with this component (only
 * the dashboard shows it); the canvas is hidden from screen readers, who get the table.
 */
function TrendCanvas({ points }: { points: TotalsHistory['points'] }) {
  const container = useRef<HTMLDivElement | null>(null);
  const colors = useChartColors();
  const language = useLanguage();
  const t = useT();
  const [failed, setFailed] = useState<string | null>(null);

  useEffect(() => {
    const element = container.current;
    if (!element) return;
    let disposed = false;
    let chart: { destroy(): void; setSize(size: { width: number; height: number }): void } | null =
      null;
    let observer: ResizeObserver | null = null;

    // i18n-exempt: a module's path, not a text.
    void Promise.all([import('uplot'), import('uplot/dist/uPlot.min.css')])
      .then(([{ default: UPlot }]) => {
        if (disposed) return;
        const { text, grid, line } = colors;
        const xs = points.map((point) => Date.parse(`${point.on}T00:00:00Z`) / 1000);
        const ys = points.map((point) => Number(paiseFromAmount(point.totalOwed)) / 100);
        const axis = { stroke: text, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid } };
        const format = axisFormats(language);
        chart = new UPlot(
          {
            width: element.clientWidth,
            height: CHART_HEIGHT,
            legend: { show: false },
            cursor: { show: false },
            scales: { x: { time: true } },
            axes: [
              {
                ...axis,
                space: format.daySpace,
                values: (_u, ticks) => ticks.map((tick) => format.day.format(tick * 1000)),
              },
              {
                ...axis,
                size: 64,
                values: (_u, ticks) => format.amounts(ticks),
              },
            ],
            series: [{}, { stroke: line, width: 2, fill: `${line}22` }],
            tzDate: (seconds) => UPlot.tzDate(new Date(seconds * 1000), 'UTC'),
          },
          [xs, ys],
          element,
        );
        observer = new ResizeObserver(() =>
          chart?.setSize({ width: element.clientWidth, height: CHART_HEIGHT }),
        );
        observer.observe(element);
      })
      .catch((error: unknown) => {
        if (!disposed) setFailed(error instanceof Error ? error.message : String(error));
      });

    return () => {
      disposed = true;
      observer?.disconnect();
      chart?.destroy();
    };
  }, [points, colors, language]);

  if (failed) {
    return (
      <p role="alert" className="text-danger small">
        {t('ledger.chart.failed', { why: failed })}
      </p>
    );
  }
  return <div ref={container} aria-hidden="true" style={{ minHeight: CHART_HEIGHT }} />;
}

/** The total owed over the days given: a line for the eye, a table for screen readers. */
export function TotalOwedChart({ points }: { points: TotalsHistory['points'] }) {
  const t = useT();
  const first = points[0];
  const last = points.at(-1);
  return (
    <figure className="mb-0">
      <TrendCanvas points={points} />
      <figcaption className="small text-body-secondary">
        {first && last ? (
          <T
            id="ledger.chart.fromTo"
            values={{ from: formatDay(first.on), to: formatDay(last.on) }}
            components={{
              0: <Money amount={first.totalOwed} />,
              1: <Money amount={last.totalOwed} />,
            }}
          />
        ) : (
          t('ledger.chart.noDays')
        )}
      </figcaption>
      <table className="visually-hidden">
        <caption>{t('ledger.chart.caption')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('ledger.chart.date')}</th>
            <th scope="col">{t('ledger.chart.totalOwed')}</th>
          </tr>
        </thead>
        <tbody>
          {points.map((point) => (
            <tr key={point.on}>
              <td>{formatDay(point.on)}</td>
              <td>
                <Money amount={point.totalOwed} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}
