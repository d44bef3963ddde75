#!/usr/bin/env node
/**
 * The Node.js versions package.json declares (`engines.node`) must be true:
 *  - the Node.js running this (CI's) is one of them, since CI is what proves the declaration;
 *  - every package in package-lock.json that states its own `engines.node` accepts ALL of them, so `npm install`
 *    prints no EBADENGINE warning on any declared version, not only on the one CI happens to run.
 * Exits 1 listing each package that does not fit.
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
if (!semver.satisfies(process.version, declared)) {
  problems.push(`this Node.js (${process.version}) is not in the declared range ${declared}: CI would not prove it`);
}
const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8'));
for (const [path, entry] of Object.entries(lock.packages ?? {})) {
  const wanted = entry.engines?.node;
  if (!path || typeof wanted !== 'string') continue;
  if (!semver.validRange(wanted) || !semver.subset(declared, wanted)) {
    problems.push(`${path.replace(/^.*node_modules\//, '')}@${entry.version}${entry.dev ? ' (dev)' : ''} wants node ${wanted}`);
  }
}

if (problems.length > 0) {
  console.error(`engines.node is ${declared}, but:\n${problems.map((problem) => `  ${problem}`).join('\n')}`);
  process.exit(1);
}
console.log(`engines.node ${declared}: Node.js ${process.version} and every locked package agree`);
