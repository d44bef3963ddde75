#!/usr/bin/env node
/**
 * Every relative link in the project's Markdown (README.md, CONTRIBUTING.md, docs/**) must resolve inside the
 * repository: to a file or folder that exists, and, for `file.md#anchor` or `#anchor`, to a heading of that file.
 * A link to `../shared/...` works on one machine and is broken in every clone; this makes it a CI failure.
 * Links with a scheme (https:, mailto:) are not checked: CI must not depend on the network.
 *
 * `node scripts/check-links.js [file.md ...]` (default: the project's Markdown). Exits 1 listing each bad link.
 */
const { existsSync, readFileSync, readdirSync, statSync } = require('node:fs');
const { dirname, join, relative, resolve, sep } = require('node:path');

const root = resolve(__dirname, '..');

function markdownFiles() {
  const files = ['README.md', 'CONTRIBUTING.md'].filter((name) => existsSync(join(root, name)));
  const walk = (dir) => {
    for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.md')) files.push(path);
    }
  };
  if (existsSync(join(root, 'docs'))) walk('docs');
  return files;
}

/** The text outside fenced code blocks and inline code spans, where links are links. */
function prose(text) {
  return text.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '').replace(/`[^`\n]*`/g, '');
}

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
function anchorsOf(file) {
  const seen = new Map();
  const anchors = new Set();
  const text = readFileSync(file, 'utf8').replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '');
  for (const [, heading] of text.matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = heading
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

function linksOf(text) {
  const body = prose(text);
  const inline = [...body.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((match) => match[1]);
  const references = [...body.matchAll(/^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+"[^"]*")?\s*$/gm)].map((match) => match[1]);
  return [...inline, ...references];
}

function problemsIn(file) {
  const absolute = resolve(root, file);
  const problems = [];
  for (const link of linksOf(readFileSync(absolute, 'utf8'))) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(link)) continue; // https:, mailto:, ...
    const [pathPart, anchor] = link.split('#', 2);
    const path = decodeURIComponent(pathPart);
    const target = path ? resolve(dirname(absolute), path) : absolute;
    if (path.startsWith('/') || (target !== root && !target.startsWith(root + sep))) {
      problems.push(`${file}: ${link} points outside the repository`);
    } else if (!existsSync(target)) {
      problems.push(`${file}: ${link} does not exist (${relative(root, target)})`);
    } else if (anchor && statSync(target).isFile() && target.endsWith('.md') && !anchorsOf(target).has(anchor)) {
      problems.push(`${file}: ${link} names no heading of ${relative(root, target)}`);
    }
  }
  return problems;
}

const files = process.argv.length > 2 ? process.argv.slice(2) : markdownFiles();
const problems = files.flatMap(problemsIn);
if (problems.length > 0) {
  console.error(problems.join('\n'));
  process.exit(1);
}
console.log(`links: ${files.length} Markdown files, every relative link resolves inside the repository`);
