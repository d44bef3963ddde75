// docs/benchmarks.svg: service / baseline ratios against their targets, one bar per database mode, from the
// latest bench/results/bench-<mode>-*.json of each mode, or from the files named on the command line
// (`node bench/lib/chart.mjs bench/cited/bench-embedded-….json bench/cited/bench-postgresql-….json`: how the
// committed chart is drawn from the results docs/benchmarks.md cites). A hand-written SVG, no dependency.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT } from './common.mjs';

const MODES = [
  { mode: 'embedded', label: 'embedded (PGlite)', color: '#4e79a7' },
  { mode: 'postgresql', label: 'PostgreSQL', color: '#f28e2b' },
];
const escape = (text) => String(text).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function latestResults(paths) {
  const dir = join(ROOT, 'bench/results');
  const files = paths ?? readdirSync(dir).filter((f) => /^bench-(embedded|postgresql)-.*\.json$/.test(f)).sort().map((f) => join(dir, f));
  const latest = {};
  for (const file of files) latest[basename(file).split('-')[1]] = { file, ...JSON.parse(readFileSync(file, 'utf8')) };
  return latest;
}

/** Writes the chart and returns its path. */
export function writeChart(path = join(ROOT, 'docs/benchmarks.svg'), files = undefined) {
  const latest = latestResults(files);
  const modes = MODES.filter((m) => latest[m.mode]);
  // The figures with a baseline and a target, in the order of the first results file that has them.
  const keys = [];
  const rowOf = {};
  for (const { mode } of modes) {
    for (const row of latest[mode].medians.rows) {
      if (row.compare !== 'ratio' || !row.target) continue;
      if (!keys.includes(row.key)) keys.push(row.key);
      rowOf[`${mode}:${row.key}`] = row;
    }
  }
  const barH = 18;
  const groupH = modes.length * barH + 26;
  const left = 250;
  const plotW = 520;
  const top = 78;
  const width = left + plotW + 150;
  const height = top + keys.length * groupH + 60;
  const values = Object.values(rowOf).flatMap((r) => [r.value ?? 0, r.target.limit]);
  const xMax = Math.ceil(Math.max(1, ...values) * 1.15 * 2) / 2;
  const x = (v) => round2(left + (Math.min(v, xMax) / xMax) * plotW);
  const out = [];
  out.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="12">`);
  out.push(`<rect width="100%" height="100%" fill="#fff"/>`);
  out.push(`<text x="${width / 2}" y="24" text-anchor="middle" font-size="16" font-weight="bold">Action Gateway vs. bare node:http baseline: service / baseline</text>`);
  const sources = modes.map((m) => `${m.label}: ${latest[m.mode].code.commit.slice(0, 7)}${latest[m.mode].code.src_modified ? '+' : ''}, ${latest[m.mode].date.slice(0, 10)}, ${latest[m.mode].config.rounds} round(s)`);
  out.push(`<text x="${width / 2}" y="44" text-anchor="middle" fill="#555">${escape(sources.join('  ·  ') || 'no results yet')}</text>`);
  // Grid and axis.
  const step = xMax <= 2 ? 0.25 : xMax <= 5 ? 0.5 : 1;
  for (let v = 0; v <= xMax + 1e-9; v += step) {
    out.push(`<line x1="${x(v)}" y1="${top - 8}" x2="${x(v)}" y2="${height - 48}" stroke="#e5e5e5"/>`);
    out.push(`<text x="${x(v)}" y="${height - 34}" text-anchor="middle" fill="#555">${round2(v)}</text>`);
  }
  out.push(`<text x="${left + plotW / 2}" y="${height - 16}" text-anchor="middle" fill="#333">ratio service / baseline (requests/s: higher is better; p99 latency: lower is better)</text>`);
  keys.forEach((key, i) => {
    const y0 = top + i * groupH;
    const any = modes.map((m) => rowOf[`${m.mode}:${key}`]).find(Boolean);
    const better = any.target.op === '>=' ? 'higher is better' : 'lower is better';
    out.push(`<text x="${left - 10}" y="${y0 + 12}" text-anchor="end" font-weight="bold">${escape(any.label)}</text>`);
    out.push(`<text x="${left - 10}" y="${y0 + 28}" text-anchor="end" fill="#555">${escape(`${any.metric} (${better})`)}</text>`);
    const tx = x(any.target.limit);
    modes.forEach((m, j) => {
      const row = rowOf[`${m.mode}:${key}`];
      const y = y0 + j * barH;
      if (!row || row.value === null) {
        out.push(`<text x="${left + 4}" y="${y + 13}" fill="#999">${escape(m.label)}: not measured</text>`);
        return;
      }
      const mark = row.pass ? 'PASS' : 'MISS';
      out.push(`<rect x="${left}" y="${y + 2}" width="${Math.max(1, x(row.value) - left)}" height="${barH - 4}" fill="${m.color}"/>`);
      // The value right of its bar, or right of the target line when it would sit on it.
      const labelX = x(row.value) < tx && tx - x(row.value) < 70 ? tx + 6 : x(row.value) + 4;
      out.push(`<text x="${labelX}" y="${y + 13}">${round2(row.value)} ${mark}${row.failures ? ' (errors)' : ''}</text>`);
    });
    const y1 = y0 - 2;
    const y2 = y0 + modes.length * barH + 2;
    out.push(`<line x1="${tx}" y1="${y1}" x2="${tx}" y2="${y2}" stroke="#d62728" stroke-width="2" stroke-dasharray="4 2"/>`);
    out.push(`<text x="${tx}" y="${y2 + 11}" text-anchor="middle" fill="#d62728" font-size="11">target ${any.target.op === '>=' ? '≥' : '≤'} ${any.target.limit}</text>`);
  });
  // Legend.
  let lx = left;
  for (const m of modes) {
    out.push(`<rect x="${lx}" y="54" width="12" height="12" fill="${m.color}"/><text x="${lx + 16}" y="64">${escape(m.label)}</text>`);
    lx += 150;
  }
  out.push(`<line x1="${lx}" y1="60" x2="${lx + 20}" y2="60" stroke="#d62728" stroke-width="2" stroke-dasharray="4 2"/><text x="${lx + 24}" y="64">target</text>`);
  out.push('</svg>');
  writeFileSync(path, out.join('\n') + '\n');
  return path;
}

const round2 = (v) => Math.round(v * 100) / 100;

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const files = process.argv.slice(2).map((file) => resolve(file));
  console.log(writeChart(undefined, files.length > 0 ? files : undefined));
}
