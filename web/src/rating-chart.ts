// A rating graph drawn by hand in SVG: the rating after each rated game of
// one game x speed, the games evenly spaced (a player's history is what it
// is game by game; calendar gaps would flatten it), with a few rating lines.

export interface ChartPoint {
  rating: number;
  at: number;
}

export interface ChartGeometry {
  /** SVG path data of the line. */
  path: string;
  /** The points' coordinates, in order. */
  points: { x: number; y: number }[];
  /** Horizontal rating lines: value and height. */
  ticks: { y: number; rating: number }[];
  min: number;
  max: number;
}

/** The geometry of a chart of `width` x `height` with `pad` pixels of margin. */
export function chartGeometry(data: readonly ChartPoint[], width: number, height: number, pad = 8): ChartGeometry {
  const ratings = data.map(p => p.rating);
  let min = Math.min(...ratings);
  let max = Math.max(...ratings);
  if (!Number.isFinite(min)) min = max = 1500;
  // at least 100 points of range, rounded out to fifties
  const mid = (min + max) / 2;
  if (max - min < 100) (min = mid - 50), (max = mid + 50);
  min = Math.floor(min / 50) * 50;
  max = Math.ceil(max / 50) * 50;
  const x = (i: number) => (data.length <= 1 ? width / 2 : pad + (i * (width - 2 * pad)) / (data.length - 1));
  const y = (r: number) => pad + ((max - r) * (height - 2 * pad)) / (max - min);
  const points = data.map((p, i) => ({ x: round(x(i)), y: round(y(p.rating)) }));
  const path = points.map((p, i) => `${i ? 'L' : 'M'}${p.x} ${p.y}`).join(' ');
  const step = niceStep((max - min) / 4);
  const ticks: { y: number; rating: number }[] = [];
  for (let r = Math.ceil(min / step) * step; r <= max; r += step) ticks.push({ y: round(y(r)), rating: r });
  return { path, points, ticks, min, max };
}

function niceStep(raw: number): number {
  for (const s of [50, 100, 200, 250, 500, 1000]) if (s >= raw) return s;
  return 1000;
}

function round(v: number): number {
  return Math.round(v * 10) / 10;
}

const NS = 'http://www.w3.org/2000/svg';

function svg<K extends keyof SVGElementTagNameMap>(tag: K, attrs: Record<string, string | number>): SVGElementTagNameMap[K] {
  const e = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  return e;
}

/** The chart as an <svg> element; `label` is its accessible name. */
export function ratingChart(data: readonly ChartPoint[], label: string, width = 320, height = 120): SVGSVGElement {
  const g = chartGeometry(data, width, height);
  const root = svg('svg', { viewBox: `0 0 ${width} ${height}`, class: 'rating-chart', role: 'img', 'aria-label': label });
  const title = svg('title', {});
  title.textContent = label;
  root.appendChild(title);
  for (const tick of g.ticks) {
    root.appendChild(svg('line', { x1: 0, x2: width, y1: tick.y, y2: tick.y, class: 'rating-chart-grid' }));
    // the label above its line, or below it when the line is at the top
    const text = svg('text', { x: 2, y: tick.y < 12 ? tick.y + 10 : tick.y - 2, class: 'rating-chart-label' });
    text.textContent = String(tick.rating);
    root.appendChild(text);
  }
  root.appendChild(svg('path', { d: g.path, class: 'rating-chart-line', fill: 'none' }));
  const last = g.points[g.points.length - 1];
  if (last) root.appendChild(svg('circle', { cx: last.x, cy: last.y, r: 3, class: 'rating-chart-dot' }));
  return root;
}
