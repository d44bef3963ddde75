#!/usr/bin/env node
/**
 * Checks the Dockerfile without a Docker engine, by doing what `docker build` would do with what a checkout holds:
 * the build context is the files git tracks, less what .dockerignore excludes (Docker's own matching rules, by
 * @balena/dockerignore); every `COPY` from the context finds its sources there; the context is copied to a
 * temporary folder with this checkout's node_modules linked in (standing for the stage's `npm install`), the
 * build stage's `RUN` commands that follow its `COPY . .` run there as the Dockerfile writes them (parsed by
 * dockerfile-ast, with the stage's `ENV`), every `COPY --from=<stage>` source then exists, and so does the file
 * the image's `node` CMD runs; the image has a HEALTHCHECK asking /readyz; every stage is FROM the official node
 * image of one LTS line that package.json declares and that has not reached its end of life. Takes about as long as
 * `npm run build:service`. Prints one line per problem and exits 1, or "docker: OK".
 * `--node-line` prints that line's major version only (what .ci/run proves besides the machine's Node.js).
 */
const { spawnSync } = require('node:child_process');
const { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { dirname, join, posix } = require('node:path');
const ignore = require('@balena/dockerignore');
const { DockerfileParser } = require('dockerfile-ast');
const semver = require('semver');

const root = join(__dirname, '..');
const problems = [];
const problem = (text) => problems.push(`Dockerfile: ${text}`);

// Stages in order, each with its name, image (the ARGs before the first FROM resolved, as Docker does), working
// directory and instructions.
const stages = [];
const args = new Map();
const resolve = (text) => text.replace(/\$\{(\w+)\}|\$(\w+)/g, (_, braced, bare) => args.get(braced ?? bare) ?? '');
for (const instruction of DockerfileParser.parse(readFileSync(join(root, 'Dockerfile'), 'utf8')).getInstructions()) {
  if (instruction.getKeyword() === 'ARG' && stages.length === 0) {
    const property = instruction.getProperty();
    if (property) args.set(property.getName(), property.getValue() ?? '');
  } else if (instruction.getKeyword() === 'FROM') {
    const image = resolve(instruction.getArguments()[0]?.getValue() ?? '');
    stages.push({ name: instruction.getBuildStage() ?? String(stages.length), image, workdir: '/', instructions: [] });
  } else if (stages.length > 0) {
    const stage = stages[stages.length - 1];
    if (instruction.getKeyword() === 'WORKDIR') {
      stage.workdir = posix.resolve(stage.workdir, instruction.getArgumentsContent());
    }
    stage.instructions.push(instruction);
  }
}
// The Node.js the image carries. Its end of life by the Node.js release schedule: past it the image would run an
// unpatched runtime, which is what this check is for; a new line goes in here when the image moves to it.
const END_OF_LIFE = { 20: '2026-04-30', 22: '2027-04-30', 24: '2028-04-30', 26: '2029-04-30' };
const declared = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).engines?.node ?? '';
const lines = new Set();
for (const stage of stages) {
  const line = /^node:(\d+)(?:[.-]|$)/.exec(stage.image)?.[1];
  if (line === undefined) problem(`${stage.name}: FROM ${stage.image}: not the official node image with its line in the tag (node:<major>-...)`);
  else lines.add(Number(line));
}
if (lines.size > 1) problem(`the stages run different Node.js lines (${[...lines].join(', ')}): build and run on one`);
for (const line of lines) {
  if (!semver.validRange(declared) || !semver.intersects(`${line}.x`, declared)) problem(`Node.js ${line}: package.json's engines.node (${declared}) does not declare it`);
  if (line % 2 === 1) problem(`Node.js ${line}: an odd line, never a long-term-support one`);
  else if (!END_OF_LIFE[line]) problem(`Node.js ${line}: no end-of-life date in scripts/check-docker.js (END_OF_LIFE)`);
  else if (new Date(`${END_OF_LIFE[line]}T00:00:00Z`) <= new Date()) problem(`Node.js ${line}: past its end of life (${END_OF_LIFE[line]}): move the image (docs/operations.md)`);
}
if (process.argv.includes('--node-line')) {
  if (problems.length > 0 || lines.size !== 1) {
    console.error(problems.join('\n') || 'Dockerfile: no stage');
    process.exit(1);
  }
  console.log([...lines][0]);
  process.exit(0);
}

const copies = (stage) => stage.instructions.filter((instruction) => instruction.getKeyword() === 'COPY');
const fromStage = (copy) => copy.getFlags().find((flag) => flag.getName() === 'from')?.getValue();
const paths = (copy) => copy.getArguments().map((argument) => argument.getValue());
// Docker reads an instruction's arguments as a JSON array when they parse as one (exec form), else as a shell line.
const execForm = (instruction) => {
  try {
    const parsed = JSON.parse(instruction.getArgumentsContent());
    return Array.isArray(parsed) && parsed.every((part) => typeof part === 'string') ? parsed : null;
  } catch {
    return null;
  }
};

// The context: what a checkout holds (git ls-files), less what .dockerignore excludes.
const rules = existsSync(join(root, '.dockerignore')) ? readFileSync(join(root, '.dockerignore'), 'utf8') : '';
const kept = ignore({ ignorecase: false }).add(rules).createFilter();
const tracked = spawnSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' });
if (tracked.status !== 0) {
  console.error(`docker: git ls-files failed: ${tracked.stderr}`);
  process.exit(1);
}
const context = tracked.stdout.split('\0').filter((file) => file !== '' && kept(file) && existsSync(join(root, file)));
const inContext = (source) => {
  const path = posix.normalize(source).replace(/^(\.\/|\/)+/, '').replace(/\/$/, '');
  return path === '.' || context.some((file) => file === path || file.startsWith(`${path}/`));
};
for (const stage of stages) {
  for (const copy of copies(stage).filter((copy) => fromStage(copy) === undefined)) {
    for (const source of paths(copy).slice(0, -1)) {
      if (!inContext(source)) problem(`${stage.name}: COPY ${source}: not in the build context (git ls-files less .dockerignore)`);
    }
  }
}

// Each stage another copies from is built from the context, then what is copied from it must exist.
const runtime = stages[stages.length - 1];
const last = (stage, keyword) => stage.instructions.filter((instruction) => instruction.getKeyword() === keyword).at(-1);
const startCommand = last(runtime, 'CMD') && execForm(last(runtime, 'CMD'));
const script = startCommand?.[0] === 'node' ? posix.resolve(runtime.workdir, startCommand[1]) : undefined;
const built = [];
for (const name of new Set(stages.flatMap((stage) => copies(stage).map(fromStage)).filter(Boolean))) {
  const stage = stages.find((candidate) => candidate.name === name);
  if (!stage) {
    problem(`COPY --from=${name}: no such stage`);
    continue;
  }
  const contextCopy = stage.instructions.findIndex(
    (instruction) => instruction.getKeyword() === 'COPY' && fromStage(instruction) === undefined && paths(instruction).join(' ') === '. .',
  );
  if (contextCopy < 0) {
    problem(`${name}: no COPY . . (this check builds a stage from the whole context)`);
    continue;
  }
  const folder = mkdtempSync(join(tmpdir(), 'check-docker-'));
  try {
    for (const file of context) {
      mkdirSync(dirname(join(folder, file)), { recursive: true });
      cpSync(join(root, file), join(folder, file), { verbatimSymlinks: true });
    }
    symlinkSync(join(root, 'node_modules'), join(folder, 'node_modules'), 'dir');
    const env = { ...process.env };
    let failed = false;
    stage.instructions.forEach((instruction, index) => {
      if (instruction.getKeyword() === 'ENV') {
        for (const property of instruction.getProperties()) env[property.getName()] = property.getValue() ?? '';
      }
      if (instruction.getKeyword() !== 'RUN' || index < contextCopy || failed) return;
      const exec = execForm(instruction);
      const [command, ...args] = exec ?? ['/bin/sh', '-c', instruction.getArgumentsContent()];
      const result = spawnSync(command, args, { cwd: folder, env, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
      if (result.status !== 0) {
        failed = true;
        process.stderr.write(`${result.stdout ?? ''}${result.stderr ?? ''}`);
        const exit = result.status ?? result.signal ?? result.error?.message;
        problem(`${name}: RUN ${instruction.getArgumentsContent()}: exits ${exit} on the build context`);
      }
    });
    if (!failed) {
      for (const copy of copies(runtime).filter((copy) => fromStage(copy) === name)) {
        for (const source of paths(copy).slice(0, -1)) {
          const path = posix.relative(stage.workdir, posix.resolve(stage.workdir, source));
          if (path.startsWith('..') || !existsSync(join(folder, path))) {
            problem(`${runtime.name}: COPY --from=${name} ${source}: the ${name} stage does not make it`);
          }
        }
        // The file CMD runs, when this COPY puts it in the image: the build must have made it.
        if (script === undefined || paths(copy).length !== 2) continue;
        const from = posix.resolve(stage.workdir, paths(copy)[0]);
        const to = posix.resolve(runtime.workdir, paths(copy)[1]);
        if (script === to || script.startsWith(`${to}/`)) {
          const path = posix.relative(stage.workdir, from + script.slice(to.length));
          if (!existsSync(join(folder, path))) {
            problem(`${runtime.name}: CMD runs ${startCommand[1]}, which the ${name} stage does not make`);
          }
        }
      }
      built.push(name);
    }
  } finally {
    rmSync(join(folder, 'node_modules'), { force: true });
    rmSync(folder, { recursive: true, force: true });
  }
}

// A plain `docker run` is health-checked too (compose and deploy/k8s set their own), by /readyz as compose is.
const healthcheck = last(runtime, 'HEALTHCHECK');
if (!healthcheck) problem(`${runtime.name}: no HEALTHCHECK (a plain docker run would have none)`);
else if (!/\/readyz\b/.test(healthcheck.getArgumentsContent() ?? '')) problem(`${runtime.name}: the HEALTHCHECK does not ask /readyz`);

// `docker run --env-file .env` with a copy of .env.example: an empty `VAR=` line there would override what the
// image sets (NODE_ENV=production turned into development, with no error), so such variables stay commented out.
const imageEnv = runtime.instructions
  .filter((instruction) => instruction.getKeyword() === 'ENV')
  .flatMap((instruction) => instruction.getProperties().map((property) => property.getName()));
const example = readFileSync(join(root, '.env.example'), 'utf8');
for (const name of imageEnv) {
  if (new RegExp(`^${name}=`, 'm').test(example)) problems.push(`.env.example: sets ${name}, which the image sets (ENV): comment it out`);
}

if (problems.length > 0) {
  console.error(problems.join('\n'));
  process.exit(1);
}
const made = `${built.join(', ')} stage built from it, every COPY --from source made`;
const runtimeLine = `Node.js ${[...lines][0]} (end of life ${END_OF_LIFE[[...lines][0]]})`;
console.log(`docker: OK (${context.length} files in the build context; ${made}; HEALTHCHECK asks /readyz; ${runtimeLine})`);
