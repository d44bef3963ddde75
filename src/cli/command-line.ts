import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { closest } from '../actions/schema/schema-mistakes';
import { isUuid } from '../common/uuid';
import { COMMANDS, Command, CommandError, Options, UsageError, optionsOf } from './commands';
import { commandHelp, generalHelp } from './help';

/** What the arguments ask for: a help text, or a command with its options. */
type Invocation = { help: string } | { name: string; command: Command; options: Options };

const HELP_FLAGS = new Set(['-h', '--help']);

/**
 * `<command> [--option value ...]`, `help [<command>]`, `<command> --help`, `--help`/`-h`, or nothing (the
 * general help, as `gh` does). Anything else is a UsageError naming what is wrong.
 */
export function parseCommandLine(argv: string[]): Invocation {
  const [first, ...rest] = argv;
  if (first === undefined || HELP_FLAGS.has(first)) return { help: generalHelp() };
  if (first === 'help') {
    const [topic, ...extra] = rest;
    if (extra.length > 0) throw new UsageError(`unexpected argument "${extra[0]}"`);
    if (topic === undefined) return { help: generalHelp() };
    return { help: commandHelp(topic, commandNamed(topic)) };
  }
  const command = commandNamed(first);
  if (rest.some((arg) => HELP_FLAGS.has(arg))) return { help: commandHelp(first, command) };
  try {
    const { values } = parseArgs({
      args: rest,
      options: Object.fromEntries(optionsOf(command).map((option) => [option.name, { type: 'string' as const }])),
      strict: true,
      allowPositionals: false,
    });
    checkRequired(command, values as Options);
    return { name: first, command, options: values as Options };
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(parseArgsProblem(error as NodeJS.ErrnoException));
  }
}

/** Missing options are a usage error before anything runs (no database opened, nothing half-done). */
function checkRequired(command: Command, options: Options): void {
  if (command.tenant) {
    if (options.tenant && options['tenant-id']) throw new UsageError('give --tenant or --tenant-id, not both');
    if (!options.tenant && !options['tenant-id']) throw new UsageError('--tenant <name> or --tenant-id <id> is required');
  }
  const missing = command.options.find((option) => option.required && !options[option.name]);
  if (missing) throw new UsageError(`--${missing.name} <${missing.value}> is required`);
  if (command.oneOf && !command.oneOf.some((name) => options[name] !== undefined)) {
    throw new UsageError(`give at least one of ${command.oneOf.map((name) => `--${name}`).join(', ')}`);
  }
  command.check?.(options);
  for (const option of optionsOf(command)) {
    const value = options[option.name];
    if (option.idOf && value !== undefined && !isUuid(value)) throw new UsageError(notAnId(option.idOf, value));
  }
}

/**
 * Ids are UUIDs: anything else would only be "not found" from the API. A tenant's name where its id is expected
 * (`--tenant-id acme`) is the likely mistake, so the message names the option meant.
 */
function notAnId({ kind, listedBy }: { kind: string; listedBy: string }, value: string): string {
  const shown = JSON.stringify(value.length > 64 ? `${value.slice(0, 64)}…` : value);
  if (kind === 'tenant') return `${shown} is not a tenant id (ids are UUIDs): did you mean --tenant ${shellWord(value)}?`;
  return `${shown} is not ${/^[AEHIOUaeiou]/.test(kind) ? 'an' : 'a'} ${kind} id (ids are UUIDs: ${listedBy} shows them)`;
}

/** A value as it would be typed again in a shell. */
function shellWord(value: string): string {
  return /^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}

/**
 * The command's options with each JSON-file option's value (a path, `-` for standard input) replaced by the file's
 * text, read and checked to be JSON before anything runs, so a typo in a path opens no database and sends nothing.
 */
export function readJsonFiles(command: Command, options: Options, read: (path: string) => string = readOption): Options {
  const resolved = { ...options };
  for (const option of optionsOf(command)) {
    const path = options[option.name];
    if (!option.jsonFile || path === undefined) continue;
    let text: string;
    try {
      text = read(path);
    } catch (error) {
      const { code } = error as NodeJS.ErrnoException;
      throw new CommandError(`cannot read --${option.name} ${path}: ${code ?? (error as Error).message}`);
    }
    try {
      JSON.parse(text);
    } catch (error) {
      throw new CommandError(`--${option.name} ${path} is not JSON: ${(error as Error).message}`);
    }
    resolved[option.name] = text;
  }
  return resolved;
}

function readOption(path: string): string {
  return readFileSync(path === '-' ? 0 : path, 'utf8');
}

function commandNamed(name: string): Command {
  const command = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (!command) {
    const near = closest(name, Object.keys(COMMANDS));
    throw new UsageError(`unknown command "${name}"${near ? ` (did you mean "${near}"?)` : ''}`);
  }
  return command;
}

/** node:util's messages are long and capitalized; say the same thing the way the rest of the CLI does. */
function parseArgsProblem(error: NodeJS.ErrnoException): string {
  const quoted = /'([^']+)'/.exec(error.message)?.[1];
  switch (error.code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION':
      return `unknown option ${quoted ?? ''}`.trim();
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE':
      return `option ${(quoted ?? '').split(' ')[0]} needs a value`;
    case 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL':
      return `unexpected argument "${quoted ?? ''}"`;
    default:
      return error.message.charAt(0).toLowerCase() + error.message.slice(1);
  }
}
