import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { amountTicks, formatUsdc } from '../money';

export interface AmountSeries {
  label: string;
  color: string;
  /** base units, one per point */
  units: bigint[];
}

const BAR_WIDTH_MAX = 28;
/** Room for one label of the time axis, in CSS pixels. */
const LABEL_WIDTH = 90;

/**
 * USDC amounts over time (uPlot), exact: the amounts stay bigint base units. A number is made of an
 * amount only to place its bar or point; the axis is labelled at integer ticks (amountTicks) and
 * the legend, as the cursor moves, shows the point's own amount, both written by formatUsdc, so
 * what the chart says is what a table of the same amounts says. `at` is each point's time (epoch
 * seconds) and `labels` what the legend calls it (under `atLabel`); there is a point for each given
 * amount and no other. `bars` draws each point as a bar (amounts per day), else points joined by a
 * line (running totals).
 */
export function AmountChart({ at, labels, atLabel, series, bars = false, testId }: {
  at: number[]; labels: string[]; atLabel: string; series: AmountSeries[]; bars?: boolean; testId?: string;
}) {
  const box = useRef<HTMLDivElement>(null);
  const key = JSON.stringify([at, labels, atLabel, series.map((s) => [s.label, s.units.map(String)]), bars]);
  useEffect(() => {
    if (!box.current || at.length === 0) return;
    const ticks = amountTicks(series.reduce((max, s) => s.units.reduce((m, u) => (u > m ? u : m), max), 0n));
    const tickLabels = ticks.map(formatUsdc);
    const top = Number(ticks[ticks.length - 1]);
    // a lone point or a few days get half a spacing of room on each side
    const gaps = at.slice(1).map((x, i) => x - at[i]).filter((gap) => gap > 0);
    const spacing = gaps.length > 0 ? Math.min(...gaps) : 86_400;
    const barSeries = series.length;
    const width = Math.max(200, box.current.clientWidth);
    // bars stand for their points (days): the time axis is marked at them, labelled as the legend
    // names them, every so many when they would crowd
    const every = Math.max(1, Math.ceil((at.length * LABEL_WIDTH) / width));
    const pointAxis: uPlot.Axis = {
      splits: () => at,
      values: (_u, splits) => splits.map((_, i) => (i % every === 0 ? labels[i] : '')),
    };
    const plot = new uPlot({
      width,
      height: 220,
      scales: {
        x: { time: true, range: () => [at[0] - spacing / 2, at[at.length - 1] + spacing / 2] },
        y: { range: () => [0, top] },
      },
      axes: [
        bars ? pointAxis : {},
        {
          label: 'USDC',
          splits: () => ticks.map(Number),
          values: () => tickLabels,
          size: 24 + 8 * Math.max(...tickLabels.map((t) => t.length)),
        },
      ],
      series: [
        { label: atLabel, value: (_u, _v, _s, idx) => (idx == null ? '—' : labels[idx]) },
        ...series.map((s, i) => ({
          label: s.label,
          stroke: s.color,
          fill: bars ? s.color : undefined,
          width: bars ? 0 : 2,
          points: { show: !bars },
          paths: bars
            ? uPlot.paths.bars!({ size: [0.8 / barSeries, BAR_WIDTH_MAX], align: barSeries === 1 ? 0 : i === 0 ? -1 : 1 })
            : undefined,
          value: (_u: uPlot, _v: number | null, _s: number, idx: number | null) =>
            (idx == null ? '—' : `${formatUsdc(s.units[idx])} USDC`),
        })),
      ],
    }, [at, ...series.map((s) => s.units.map((u) => Number(u)))] as uPlot.AlignedData, box.current);
    return () => plot.destroy();
  }, [key]);
  return (
    <div ref={box} class="chart" data-testid={testId}>
      {at.length === 0 && <p class="muted">Nothing to draw yet.</p>}
    </div>
  );
}
