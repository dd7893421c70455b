/**
 * A small, dependency-free SVG line chart for the benchmark report (tokens vs N on log axes, recall/F1 vs θ).
 * Output is deterministic text: the same data gives byte-identical files, so charts diff cleanly in git.
 */

export interface Series {
  name: string;
  points: readonly (readonly [number, number])[];
  /** Draw dashed (e.g. projected values). */
  dashed?: boolean;
}

export interface ChartOptions {
  title: string;
  xLabel: string;
  yLabel: string;
  series: readonly Series[];
  logX?: boolean;
  logY?: boolean;
  /** Fixed y range (linear axes), e.g. [0, 1] for rates. */
  yRange?: readonly [number, number];
  /** Vertical marker, e.g. the chosen θ. */
  markerX?: { x: number; label: string };
  width?: number;
  height?: number;
}

const PALETTE = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf", "#7f7f7f", "#bcbd22"];

function esc(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

function fmt(v: number): string {
  if (v === 0) return "0";
  const a = Math.abs(v);
  if (a >= 1e6) return `${+(v / 1e6).toPrecision(3)}M`;
  if (a >= 1e3) return `${+(v / 1e3).toPrecision(3)}k`;
  if (a >= 1) return `${+v.toPrecision(3)}`;
  return `${+v.toFixed(2)}`;
}

/** Tick values: powers of ten on a log axis, ~5 round steps on a linear one. */
export function ticks(min: number, max: number, log: boolean): number[] {
  if (log) {
    const out: number[] = [];
    for (let e = Math.floor(Math.log10(min)); e <= Math.ceil(Math.log10(max)); e++) out.push(10 ** e);
    return out;
  }
  if (max === min) return [min];
  const raw = (max - min) / 5;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * mag).find((s) => s >= raw) ?? raw;
  const out: number[] = [];
  for (let v = Math.ceil(min / step) * step; v <= max + step * 1e-9; v += step) out.push(+v.toPrecision(12));
  return out;
}

export function lineChart(o: ChartOptions): string {
  const W = o.width ?? 720;
  const H = o.height ?? 420;
  const m = { left: 70, right: 200, top: 40, bottom: 50 };
  const pw = W - m.left - m.right;
  const ph = H - m.top - m.bottom;
  const pts = o.series.flatMap((s) => s.points).filter(([x, y]) => Number.isFinite(x) && Number.isFinite(y) && (!o.logX || x > 0) && (!o.logY || y > 0));
  const xs = pts.map((p) => p[0]);
  const ys = pts.map((p) => p[1]);
  let [x0, x1] = xs.length ? [Math.min(...xs), Math.max(...xs)] : [0, 1];
  let [y0, y1] = o.yRange ?? (ys.length ? [Math.min(...ys), Math.max(...ys)] : [0, 1]);
  if (o.logX) [x0, x1] = [10 ** Math.floor(Math.log10(x0)), 10 ** Math.ceil(Math.log10(x1))];
  if (o.logY) [y0, y1] = [10 ** Math.floor(Math.log10(y0)), 10 ** Math.ceil(Math.log10(y1))];
  else if (!o.yRange) y0 = Math.min(0, y0);
  if (x1 === x0) x1 = x0 + 1;
  if (y1 === y0) y1 = y0 + 1;
  const tx = (x: number) => m.left + (o.logX ? (Math.log10(x) - Math.log10(x0)) / (Math.log10(x1) - Math.log10(x0)) : (x - x0) / (x1 - x0)) * pw;
  const ty = (y: number) => m.top + ph - (o.logY ? (Math.log10(y) - Math.log10(y0)) / (Math.log10(y1) - Math.log10(y0)) : (y - y0) / (y1 - y0)) * ph;
  const r = (v: number) => v.toFixed(1);

  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="sans-serif" font-size="12">`,
    `<rect width="${W}" height="${H}" fill="white"/>`,
    `<text x="${W / 2}" y="22" text-anchor="middle" font-size="15" font-weight="bold">${esc(o.title)}</text>`,
  ];
  for (const v of ticks(x0, x1, !!o.logX)) {
    const x = r(tx(v));
    out.push(`<line x1="${x}" y1="${m.top}" x2="${x}" y2="${m.top + ph}" stroke="#e5e5e5"/>`);
    out.push(`<text x="${x}" y="${m.top + ph + 16}" text-anchor="middle">${fmt(v)}</text>`);
  }
  for (const v of ticks(y0, y1, !!o.logY)) {
    const y = r(ty(v));
    out.push(`<line x1="${m.left}" y1="${y}" x2="${m.left + pw}" y2="${y}" stroke="#e5e5e5"/>`);
    out.push(`<text x="${m.left - 6}" y="${y}" text-anchor="end" dominant-baseline="middle">${fmt(v)}</text>`);
  }
  out.push(`<rect x="${m.left}" y="${m.top}" width="${pw}" height="${ph}" fill="none" stroke="#333"/>`);
  out.push(`<text x="${m.left + pw / 2}" y="${H - 12}" text-anchor="middle">${esc(o.xLabel)}${o.logX ? " (log)" : ""}</text>`);
  out.push(
    `<text x="16" y="${m.top + ph / 2}" text-anchor="middle" transform="rotate(-90 16 ${m.top + ph / 2})">${esc(o.yLabel)}${o.logY ? " (log)" : ""}</text>`,
  );
  if (o.markerX && o.markerX.x >= x0 && o.markerX.x <= x1) {
    const x = r(tx(o.markerX.x));
    out.push(`<line x1="${x}" y1="${m.top}" x2="${x}" y2="${m.top + ph}" stroke="#555" stroke-dasharray="2 3"/>`);
    out.push(`<text x="${x}" y="${m.top - 4}" text-anchor="middle" font-size="11">${esc(o.markerX.label)}</text>`);
  }
  o.series.forEach((s, i) => {
    const color = PALETTE[i % PALETTE.length];
    const valid = s.points.filter(([x, y]) => Number.isFinite(x) && Number.isFinite(y) && (!o.logX || x > 0) && (!o.logY || y > 0));
    if (valid.length > 1)
      out.push(
        `<polyline fill="none" stroke="${color}" stroke-width="2"${s.dashed ? ' stroke-dasharray="6 4"' : ""} points="${valid.map(([x, y]) => `${r(tx(x))},${r(ty(y))}`).join(" ")}"/>`,
      );
    for (const [x, y] of valid) out.push(`<circle cx="${r(tx(x))}" cy="${r(ty(y))}" r="3" fill="${color}"/>`);
    const ly = m.top + 10 + i * 18;
    out.push(`<line x1="${m.left + pw + 12}" y1="${ly}" x2="${m.left + pw + 32}" y2="${ly}" stroke="${color}" stroke-width="2"${s.dashed ? ' stroke-dasharray="6 4"' : ""}/>`);
    out.push(`<text x="${m.left + pw + 38}" y="${ly}" dominant-baseline="middle">${esc(s.name)}</text>`);
  });
  out.push("</svg>");
  return `${out.join("\n")}\n`;
}

/** One panel of a bar chart: a value per label, on its own scale from 0. */
export interface BarPanel {
  title: string;
  values: readonly number[];
  /** How a bar's value is written at its end. */
  format: (v: number) => string;
}

export interface BarChartOptions {
  title: string;
  /** One row per label, top to bottom; every panel has a value for each. */
  labels: readonly string[];
  panels: readonly BarPanel[];
  /** Index of the row drawn in the accent colour. */
  highlight?: number;
  /** A line under the chart (source, run). */
  caption?: string;
  width?: number;
}

/** Horizontal bars, one panel per measure side by side, sharing the row labels on the left. */
export function barChart(o: BarChartOptions): string {
  const width = o.width ?? 760;
  const rowH = 30;
  const top = 56;
  const labelW = 220;
  const gap = 24;
  const height = top + o.labels.length * rowH + (o.caption ? 40 : 16);
  const panelW = (width - labelW - gap * o.panels.length) / o.panels.length;
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="12">`,
    `<rect width="${width}" height="${height}" fill="white"/>`,
    `<text x="${width / 2}" y="22" text-anchor="middle" font-size="15" font-weight="bold">${esc(o.title)}</text>`,
  ];
  o.labels.forEach((label, i) => {
    const y = top + i * rowH + rowH / 2 + 4;
    out.push(`<text x="${labelW - 8}" y="${y.toFixed(1)}" text-anchor="end"${i === o.highlight ? ' font-weight="bold"' : ""}>${esc(label)}</text>`);
  });
  o.panels.forEach((panel, p) => {
    const x0 = labelW + gap / 2 + p * (panelW + gap);
    const max = Math.max(...panel.values.filter((v) => Number.isFinite(v)), 0) || 1;
    const scale = (panelW - 60) / max;
    out.push(`<text x="${(x0 + panelW / 2).toFixed(1)}" y="${top - 12}" text-anchor="middle" font-weight="bold">${esc(panel.title)}</text>`);
    out.push(`<line x1="${x0.toFixed(1)}" y1="${top - 4}" x2="${x0.toFixed(1)}" y2="${top + o.labels.length * rowH}" stroke="#999"/>`);
    panel.values.forEach((v, i) => {
      if (!Number.isFinite(v)) return;
      const y = top + i * rowH + 6;
      const w = v * scale;
      out.push(`<rect x="${x0.toFixed(1)}" y="${y}" width="${w.toFixed(1)}" height="${rowH - 12}" fill="${i === o.highlight ? PALETTE[1] : PALETTE[0]}"/>`);
      out.push(`<text x="${(x0 + w + 4).toFixed(1)}" y="${(y + rowH / 2 - 2).toFixed(1)}">${esc(panel.format(v))}</text>`);
    });
  });
  if (o.caption) out.push(`<text x="${width / 2}" y="${height - 14}" text-anchor="middle" fill="#555">${esc(o.caption)}</text>`);
  out.push("</svg>");
  return `${out.join("\n")}\n`;
}
