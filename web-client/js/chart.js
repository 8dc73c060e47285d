// The rating-history chart: pure geometry (points -> SVG string), so the unit tests can check scaling.

/** Round axis bounds and tick step around the data: ticks at multiples of 25, 50, 100, 200 or 500 points. */
export function ratingBounds(values) {
  if (!values.length) return { lo: 1400, hi: 1600, step: 50 };
  const min = Math.min(...values);
  const max = Math.max(...values);
  const step = [25, 50, 100, 200, 500].find((s) => (max - min) / s <= 4) || 1000;
  const lo = Math.floor((min - step / 4) / step) * step;
  const hi = Math.ceil((max + step / 4) / step) * step;
  return { lo, hi, step };
}

/**
 * An SVG line chart of [{time, rating}] (time in ms, any order). x follows game order rather than wall time,
 * so a burst of games on one day stays readable.
 */
export function ratingChart(history, { width = 880, height = 240, label = '' } = {}) {
  const pts = [...history].sort((a, b) => a.time - b.time);
  const pad = { l: 44, r: 12, t: 12, b: 22 };
  const w = width - pad.l - pad.r;
  const hgt = height - pad.t - pad.b;
  const { lo, hi, step } = ratingBounds(pts.map((p) => p.rating));
  const x = (i) => pad.l + (pts.length <= 1 ? w / 2 : (i / (pts.length - 1)) * w);
  const y = (r) => pad.t + (1 - (r - lo) / (hi - lo)) * hgt;
  const parts = [`<svg xmlns="http://www.w3.org/2000/svg" class="chart" viewBox="0 0 ${width} ${height}" role="img" aria-label="${label}">`];
  for (let v = lo; v <= hi; v += step) {
    const yy = y(v).toFixed(1);
    parts.push(`<line class="gridline" x1="${pad.l}" x2="${width - pad.r}" y1="${yy}" y2="${yy}"/><text class="axis" x="${pad.l - 6}" y="${yy}">${v}</text>`);
  }
  if (pts.length) {
    const d = pts.map((p, i) => `${i ? 'L' : 'M'}${x(i).toFixed(1)} ${y(p.rating).toFixed(1)}`).join('');
    const area = `${d}L${x(pts.length - 1).toFixed(1)} ${pad.t + hgt}L${x(0).toFixed(1)} ${pad.t + hgt}Z`;
    parts.push(`<path class="area" d="${area}"/><path class="line" d="${d}"/>`);
    const lastI = pts.length - 1;
    parts.push(`<circle class="end" cx="${x(lastI).toFixed(1)}" cy="${y(pts[lastI].rating).toFixed(1)}" r="4"/>`);
  }
  parts.push('</svg>');
  return parts.join('');
}
