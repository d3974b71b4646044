import { useEffect, useRef, useState } from 'react';
import type { TotalsHistory } from '../../../shared/ledger-schema.ts';
import { paiseFromAmount } from '../../../shared/money.ts';
import { Money } from '../../components/money.tsx';
import { formatDay } from '../../lib/dates.ts';

const CHART_HEIGHT = 140;

const compactInr = new Intl.NumberFormat('en-IN', {
  style: 'currency',
  currency: 'INR',
  notation: 'compact',
  maximumFractionDigits: 1,
});

const tickDay = new Intl.DateTimeFormat('en-IN', {
  day: 'numeric',
  month: 'short',
  timeZone: 'UTC',
});

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
  const [failed, setFailed] = useState<string | null>(null);

  useEffect(() => {
    const element = container.current;
    if (!element) return;
    let disposed = false;
    let chart: { destroy(): void; setSize(size: { width: number; height: number }): void } | null =
      null;
    let observer: ResizeObserver | null = null;

    void Promise.all([import('uplot'), import('uplot/dist/uPlot.min.css')])
      .then(([{ default: UPlot }]) => {
        if (disposed) return;
        const { text, grid, line } = colors;
        const xs = points.map((point) => Date.parse(`${point.on}T00:00:00Z`) / 1000);
        const ys = points.map((point) => Number(paiseFromAmount(point.totalOwed)) / 100);
        const axis = { stroke: text, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid } };
        chart = new UPlot(
          {
            width: element.clientWidth,
            height: CHART_HEIGHT,
            legend: { show: false },
            cursor: { show: false },
            scales: { x: { time: true } },
            axes: [
              { ...axis, values: (_u, ticks) => ticks.map((t) => tickDay.format(t * 1000)) },
              { ...axis, size: 64, values: (_u, ticks) => ticks.map((v) => compactInr.format(v)) },
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
  }, [points, colors]);

  if (failed) {
    return (
      <p role="alert" className="text-danger small">
        The chart could not be drawn: {failed}
      </p>
    );
  }
  return <div ref={container} aria-hidden="true" style={{ minHeight: CHART_HEIGHT }} />;
}

/** The total owed over the days given: a line for the eye, a table for screen readers. */
export function TotalOwedChart({ points }: { points: TotalsHistory['points'] }) {
  const first = points[0];
  const last = points.at(-1);
  return (
    <figure className="mb-0">
      <TrendCanvas points={points} />
      <figcaption className="small text-body-secondary">
        {first && last ? (
          <>
            From <Money amount={first.totalOwed} /> on {formatDay(first.on)} to{' '}
            <Money amount={last.totalOwed} /> on {formatDay(last.on)}
          </>
        ) : (
          'No days to show'
        )}
      </figcaption>
      <table className="visually-hidden">
        <caption>Total owed at the end of each day</caption>
        <thead>
          <tr>
            <th scope="col">Date</th>
            <th scope="col">Total owed</th>
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
