/**
 * One figure of the reports per day as a bar chart (issue 32, "a chart per figure"): plain SVG drawn on the server, so
 * the reports page sends no chart library and no script for it (docs/decisions.md, "Report charts"). Each bar carries
 * its day and value as a tooltip; the figure's largest value labels the scale.
 */
export function ReportChart({
  title,
  days,
  values,
  format,
}: {
  title: string;
  days: string[];
  values: number[];
  format: (value: number) => string;
}) {
  const width = 320;
  const height = 120;
  const top = 16;
  const bottom = 18;
  const plot = height - top - bottom;
  const max = Math.max(0, ...values);
  const step = days.length ? width / days.length : width;
  const bar = Math.max(1, step * 0.7);
  return (
    <figure className="rounded-lg border border-gray-200 bg-white p-3" data-report-chart={title}>
      <figcaption className="text-sm font-medium text-gray-800">{title}</figcaption>
      <svg viewBox={`0 0 ${width} ${height}`} className="mt-2 h-auto w-full" role="img" aria-label={title}>
        <line x1={0} y1={top + plot} x2={width} y2={top + plot} stroke="#d1d5db" strokeWidth={1} />
        <text x={0} y={11} fontSize={10} fill="#4b5563">
          {format(max)}
        </text>
        {values.map((value, i) => {
          const h = max > 0 ? Math.max(value > 0 ? 1 : 0, (value / max) * plot) : 0;
          return (
            <rect key={days[i]} x={i * step + (step - bar) / 2} y={top + plot - h} width={bar} height={h} fill="#1d4ed8" rx={1}>
              <title>{`${days[i]}: ${format(value)}`}</title>
            </rect>
          );
        })}
        {days.length ? (
          <>
            <text x={0} y={height - 4} fontSize={10} fill="#4b5563">
              {days[0]!.slice(5)}
            </text>
            <text x={width} y={height - 4} fontSize={10} fill="#4b5563" textAnchor="end">
              {days[days.length - 1]!.slice(5)}
            </text>
          </>
        ) : null}
      </svg>
    </figure>
  );
}
