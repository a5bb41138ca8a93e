// A small SVG line chart: a few series over a fixed time window, y axis from 0 (or the data's
// minimum for step charts), three grid lines, minute marks. No library: the page needs only this.
const SVG = 'http://www.w3.org/2000/svg';

function svg(tag, attrs, text) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}

function niceMax(v) {
  if (v <= 0) return 1;
  const p = Math.pow(10, Math.floor(Math.log10(v)));
  for (const m of [1, 2, 4, 5, 8, 10]) if (m * p >= v) return m * p;
  return 10 * p;
}

function fmt(v) {
  if (v >= 100 || Number.isInteger(v)) return String(Math.round(v));
  return String(Number(v.toFixed(v >= 10 ? 0 : v >= 1 ? 1 : 2)));
}

/**
 * series: [{name, color, points: [[t, v], ...]}] in time order; opts: {now, windowMs, step, integer, empty}.
 * A null value breaks the line (no data for that interval).
 */
export function drawChart(root, series, opts) {
  const W = root.clientWidth || 360, H = root.clientHeight || 150;
  root.setAttribute('viewBox', `0 0 ${W} ${H}`);
  root.replaceChildren();
  const left = 38, right = 8, top = 8, bottom = 18;
  const t0 = opts.now - opts.windowMs;
  const values = series.flatMap(s => s.points.filter(p => p[0] >= t0 && p[1] !== null).map(p => p[1]));
  if (values.length === 0) {
    root.appendChild(svg('text', { x: W / 2, y: H / 2, class: 'empty' }, opts.empty || 'no data yet'));
    return;
  }
  let lo = 0, hi = niceMax(Math.max(...values));
  if (opts.step) { // terms: show the range that matters
    lo = Math.max(0, Math.min(...values) - 1);
    hi = Math.max(...values) + 1;
  }
  const x = t => left + ((t - t0) / opts.windowMs) * (W - left - right);
  const y = v => top + (1 - (v - lo) / (hi - lo || 1)) * (H - top - bottom);
  const span = hi - lo;
  // grid lines on round values: 5 steps for a top of 5, 50, ...; 4 for 1, 2, 4, 8, 10, ...
  const mantissa = hi / Math.pow(10, Math.floor(Math.log10(hi)));
  const divisions = opts.integer && span <= 6 ? span : Math.abs(mantissa - 5) < 1e-9 ? 5 : 4;
  for (let i = 0; i <= divisions; i++) {
    const v = lo + (span * i) / divisions;
    root.appendChild(svg('line', { x1: left, x2: W - right, y1: y(v), y2: y(v), class: 'grid' }));
    root.appendChild(svg('text', { x: left - 4, y: y(v) + 3, 'text-anchor': 'end', class: 'axis' },
      opts.integer ? String(Math.round(v)) : fmt(v)));
  }
  const tick = opts.windowMs <= 90000 ? 15000 : opts.windowMs <= 180000 ? 30000 : 60000;
  for (let k = 0; k * tick <= opts.windowMs; k++) {
    const ago = k * tick;
    const label = k === 0 ? 'now' : ago % 60000 === 0 ? `-${ago / 60000}m` : `-${ago / 1000}s`;
    root.appendChild(svg('text', { x: x(opts.now - ago), y: H - 4, 'text-anchor': k === 0 ? 'end' : 'middle', class: 'axis' }, label));
  }
  for (const s of series) {
    let d = '', pen = false, last = null;
    for (const [t, v] of s.points) {
      if (t < t0) { last = [t, v]; continue; }
      if (v === null) { pen = false; continue; }
      if (!pen && opts.step && last && last[1] !== null && !d) { // the value before the window starts it
        d += `M${x(t0)},${y(last[1])}`;
        pen = true;
      }
      if (opts.step && pen) d += `H${x(t)}V${y(v)}`;
      else d += `${pen ? 'L' : 'M'}${x(t)},${y(v)}`;
      pen = true;
      last = [t, v];
    }
    if (opts.step && pen && last) d += `H${x(opts.now)}`;
    if (d) root.appendChild(svg('path', { d, class: 'series', stroke: s.color }));
    if (opts.dots) { // sparse data (puts come and go): every point visible, even a lone one
      for (const [t, v] of s.points) {
        if (t >= t0 && v !== null) root.appendChild(svg('circle', { cx: x(t), cy: y(v), r: 2.5, fill: s.color }));
      }
    }
  }
}
