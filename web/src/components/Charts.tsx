// Score charts as plain SVG: no chart library, no inline styles (the CSP allows none).

interface Point {
  score: number;
  scanned_at: string;
}

const coordinates = (points: Point[], width: number, height: number, pad: number) =>
  points.map((p, i) => ({
    x: pad + (points.length === 1 ? (width - 2 * pad) / 2 : (i * (width - 2 * pad)) / (points.length - 1)),
    y: pad + ((100 - p.score) * (height - 2 * pad)) / 100,
    at: p.scanned_at,
  }));

const path = (points: Point[], width: number, height: number, pad: number) =>
  coordinates(points, width, height, pad)
    .map(({ x, y }, i) => `${i === 0 ? 'M' : 'L'}${x.toFixed(1)},${y.toFixed(1)}`)
    .join(' ');

/** Oldest to newest; the label reads the scores out for screen readers. */
export function Sparkline({ points }: { points: Point[] }) {
  if (points.length === 0) return <span className="muted">geen scans</span>;
  return (
    <svg
      className="sparkline"
      width="120"
      height="32"
      viewBox="0 0 120 32"
      role="img"
      aria-label={`Scoreverloop: ${points.map((p) => p.score).join(', ')}`}
    >
      <path d={path(points, 120, 32, 3)} />
      {coordinates(points, 120, 32, 3)
        .slice(-1)
        .map(({ x, y }) => (
          <circle key="latest" cx={x} cy={y} r="3" />
        ))}
    </svg>
  );
}

export function ScoreChart({ points }: { points: Point[] }) {
  if (points.length === 0) return <p className="muted">Nog geen scans. Start een scan om de score te zien.</p>;
  const first = new Date(points[0]!.scanned_at).toLocaleString('nl-NL');
  const last = new Date(points[points.length - 1]!.scanned_at).toLocaleString('nl-NL');
  const day = (moment: string) => new Date(moment).toLocaleDateString('nl-NL');
  return (
    <figure className="chart">
      <svg
        width="100%"
        height="200"
        viewBox="0 0 600 200"
        role="img"
        aria-label={`Scoregeschiedenis van ${first} tot ${last}: ${points.map((p) => p.score).join(', ')}`}
      >
        {/* The time axis: the first and the last scan's date (one scan: its date, centred). */}
        {points.length === 1 ? (
          <text x="300" y="196" textAnchor="middle">
            {day(points[0]!.scanned_at)}
          </text>
        ) : (
          <>
            <text x="10" y="196">
              {day(points[0]!.scanned_at)}
            </text>
            <text x="590" y="196" textAnchor="end">
              {day(points[points.length - 1]!.scanned_at)}
            </text>
          </>
        )}
        {[0, 50, 100].map((level) => (
          <g key={level}>
            <line
              className="grid"
              x1="0"
              x2="600"
              y1={10 + ((100 - level) * 160) / 100}
              y2={10 + ((100 - level) * 160) / 100}
            />
            <text x="2" y={8 + ((100 - level) * 160) / 100}>
              {level}
            </text>
          </g>
        ))}
        <path d={path(points, 600, 180, 10)} />
        {coordinates(points, 600, 180, 10).map(({ x, y, at }) => (
          <circle key={at} cx={x} cy={y} r="4" />
        ))}
      </svg>
      <figcaption>
        Score per scan ({points.length}), van {first} tot {last}
      </figcaption>
    </figure>
  );
}
