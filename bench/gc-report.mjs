// Young-generation collections per process, from the output of servers run with bench/gc-window.cjs and
// --trace-gc-nvp (BENCH_OUTPUT_DIR keeps it): node bench/gc-report.mjs <log files>
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
const field = (lines, name) => lines.map((line) => Number(new RegExp(`\\b${name}=([\\d.]+)`).exec(line)?.[1] ?? 0));

const rows = [];
for (const file of process.argv.slice(2)) {
  const text = readFileSync(file, 'utf8');
  const start = /GC-WINDOW start (\d+)/.exec(text);
  const end = /GC-WINDOW end (\d+)/.exec(text);
  if (!start || !end) continue;
  const window = text.slice(start.index, end.index).split('\n').filter((line) => line.includes('pause='));
  const scavenges = window.filter((line) => /\bgc=s\b/.test(line));
  const requests = Number(end[1]) - Number(start[1]);
  const allocated = field(window, 'allocated').reduce((sum, bytes) => sum + bytes, 0);
  rows.push({
    process: basename(file),
    requests,
    'allocated KB/request': +(allocated / 1024 / Math.max(1, requests)).toFixed(1),
    scavenges: scavenges.length,
    'survived KB/scavenge (median)': +(median(field(scavenges, 'new_space_survived')) / 1024).toFixed(0),
    'scavenge pause ms (median)': median(field(scavenges, 'pause')),
    'all GC pauses ms (sum)': +field(window, 'pause').reduce((sum, ms) => sum + ms, 0).toFixed(1),
  });
}
if (rows.length === 0) {
  console.error('no log with a GC-WINDOW start and end: run the servers with --require ./bench/gc-window.cjs');
  process.exit(1);
}
console.table(rows);
