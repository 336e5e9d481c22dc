import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

export interface Series {
  label: string;
  color: string;
}

/**
 * A time chart (uPlot: a few dozen kB, canvas, no dependencies). `data` is uPlot's columns: the
 * x values (epoch seconds) first, then one array per series (null: a gap). Values are for drawing only; every
 * figure the page states as text is computed exactly elsewhere.
 */
export function LineChart({ data, series, yLabel, testId }: { data: (number | null)[][]; series: Series[]; yLabel: string; testId?: string }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!box.current || data[0].length === 0) return;
    const plot = new uPlot({
      width: Math.max(200, box.current.clientWidth),
      height: 220,
      scales: { x: { time: true } },
      axes: [{}, { label: yLabel }],
      series: [{}, ...series.map((s) => ({ label: s.label, stroke: s.color, width: 2, points: { show: true } }))],
    }, data as uPlot.AlignedData, box.current);
    return () => plot.destroy();
  }, [JSON.stringify(data)]);
  return (
    <div ref={box} data-testid={testId}>
      {data[0].length === 0 && <p class="muted">Nothing to draw yet.</p>}
    </div>
  );
}
