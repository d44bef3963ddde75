#!/usr/bin/env node
/**
 * The Node.js versions package.json declares (`engines.node`) must be true:
 *  - the Node.js running this (CI's) is one of them, since CI is what proves the declaration;
 *  - every package in package-lock.json that states its own `engines.node` accepts ALL of them, each declared line
 *    (`^22.13.0`, `^24.11.0`, ...) whole, so `npm install` prints no EBADENGINE warning on any declared version,
 *    not only on the one CI happens to run.
 * Exits 1 listing each package that does not fit, with the declared lines it misses.
 */
const { readFileSync } = require('node:fs');
const { join } = require('node:path');
const semver = require('semver');

const root = join(__dirname, '..');
const declared = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).engines?.node;
if (!declared) {
  console.error('package.json declares no engines.node');
  process.exit(1);
}

const problems = [];
if (!semver.validRange(declared)) {
  console.error(`package.json's engines.node (${declared}) is no semver range`);
  process.exit(1);
}
if (!semver.satisfies(process.version, declared)) {
  problems.push(`this Node.js (${process.version}) is not in the declared range ${declared}: CI would not prove it`);
}
// The declared lines, one range each: `^20.19.0 || ^22.13.0` is [`>=20.19.0 <21.0.0-0`, `>=22.13.0 <23.0.0-0`].
const lines = new semver.Range(declared).set.map((comparators) => comparators.map(String).join(' '));
const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8'));
for (const [path, entry] of Object.entries(lock.packages ?? {})) {
  const wanted = entry.engines?.node;
  if (!path || typeof wanted !== 'string') continue;
  const missed = semver.validRange(wanted) ? lines.filter((line) => !semver.subset(line, wanted)) : ['all: no semver range'];
  if (missed.length > 0) {
    problems.push(`${path.replace(/^.*node_modules\//, '')}@${entry.version}${entry.dev ? ' (dev)' : ''} wants node ${wanted}, missing ${missed.join(', ')}`);
  }
}

if (problems.length > 0) {
  console.error(`engines.node is ${declared}, but:\n${problems.map((problem) => `  ${problem}`).join('\n')}`);
  process.exit(1);
}
console.log(`engines.node ${declared}: Node.js ${process.version} and every locked package agree, on each of the ${lines.length} lines`);
