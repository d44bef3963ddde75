import { COMMANDS, Command, optionsOf } from './commands';

const PROGRAM = 'npm run gateway --';
const HELP_OPTION = { flag: '-h, --help', description: 'show this help' };

/** `api-tokens:create (--tenant <name> | --tenant-id <id>) --name <name> [--expires-at <date-time>] [--output <file>]` */
function commandUsage(name: string, command: Command): string {
  const parts = [PROGRAM, name];
  if (command.tenant) parts.push('(--tenant <name> | --tenant-id <id>)');
  if (command.usage) parts.push(command.usage);
  const described = new Set(command.usage ? command.options.map((option) => option.name) : []);
  for (const option of optionsOf(command)) {
    if (option.name === 'tenant' && command.tenant) continue;
    if (option.name === 'tenant-id' || described.has(option.name)) continue;
    const text = `--${option.name} <${option.value}>`;
    parts.push(option.required ? text : `[${text}]`);
  }
  return parts.join(' ');
}

export function commandHelp(name: string, command: Command): string {
  const rows = optionsOf(command).map((option) => [`--${option.name} <${option.value}>`, option.description]);
  rows.push([HELP_OPTION.flag, HELP_OPTION.description]);
  return [`${capitalize(command.summary)}.`, '', `usage: ${commandUsage(name, command)}`, '', 'options:', ...table(rows), ''].join('\n');
}

export function generalHelp(): string {
  return [
    'Manage the gateway’s tenants, API tokens, HMAC keys, actions and portal links, and read and replay its',
    'delivery log. Every command prints JSON.',
    '',
    `usage: ${PROGRAM} <command> [options]`,
    `       ${PROGRAM} help [<command>]`,
    '',
    'commands:',
    ...table(Object.entries(COMMANDS).map(([name, command]) => [name, command.summary])),
    '',
    'Commands that act on one tenant take --tenant <name> or --tenant-id <id>. Every command takes',
    '--output <file> (write the JSON to a new file readable by you only) and -h, --help. --json-schema takes a',
    'file holding the JSON Schema (- for standard input), sent as written.',
    '',
    'While a service runs on the embedded database (no DATABASE_URL), commands go through it; otherwise they',
    'open the database themselves. Configuration comes from the same environment variables as the service.',
    '',
    'exit status: 0 done, 1 the command failed, 2 the command line is wrong',
    '',
  ].join('\n');
}

/** What follows a usage error: the command's usage line, or where to find the list of commands. */
export function usageHint(name?: string): string {
  const command = name ? COMMANDS[name] : undefined;
  if (command) return `usage: ${commandUsage(name!, command)}\nrun '${PROGRAM} help ${name}' for more`;
  return `run '${PROGRAM} help' for the list of commands`;
}

function table(rows: string[][]): string[] {
  const width = Math.max(...rows.map(([left]) => left.length)) + 2;
  return rows.map(([left, right]) => `  ${left.padEnd(width)}${right}`);
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
