// The rating-history chart: pure geometry (points -> SVG string), so the unit tests can check scaling.

/** Nice round bounds around the data with some headroom, in steps of 50 rating points. */
export function ratingBounds(values) {
  if (!values.length) return { lo: 1400, hi: 1600 };
  const lo = Math.floor((Math.min(...values) - 25) / 50) * 50;
  const hi = Math.ceil((Math.max(...values) + 25) / 50) * 50;
  return { lo, hi: hi === lo ? lo + 50 : hi };
}

/**
 * An SVG line chart of [{time, rating}] (time in ms, any order). x follows game order rather than wall time,
 * so a burst of games on one day stays readable.
 */
export function ratingChart(history, { width = 560, height = 200, label = '' } = {}) {
  const pts = [...history].sort((a, b) => a.time - b.time);
  const pad = { l: 44, r: 12, t: 12, b: 22 };
  const w = width - pad.l - pad.r;
  const hgt = height - pad.t - pad.b;
  const { lo, hi } = ratingBounds(pts.map((p) => p.rating));
  const x = (i) => pad.l + (pts.length <= 1 ? w / 2 : (i / (pts.length - 1)) * w);
  const y = (r) => pad.t + (1 - (r - lo) / (hi - lo)) * hgt;
  const parts = [`<svg xmlns="http://www.w3.org/2000/svg" class="chart" viewBox="0 0 ${width} ${height}" role="img" aria-label="${label}">`];
  const step = (hi - lo) / 4;
  for (let k = 0; k <= 4; k++) {
    const v = Math.round(lo + k * step);
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
