import { parseArgs } from 'node:util';
import { closest } from '../actions/schema/schema-mistakes';
import { COMMANDS, Command, Options, UsageError, optionsOf } from './commands';
import { commandHelp, generalHelp } from './help';

/** What the arguments ask for: a help text, or a command with its options. */
export type Invocation = { help: string } | { name: string; command: Command; options: Options };

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
