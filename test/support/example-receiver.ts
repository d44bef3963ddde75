import { ChildProcess, spawn } from 'node:child_process';
import { resolve } from 'node:path';

const ROOT = resolve(__dirname, '..', '..');

/**
 * Starts one of the example receivers under examples/ as a child process and resolves with its webhook URL
 * (`http://127.0.0.1:<port>/hook`) once it prints the address it listens on.
 */
export async function startExampleReceiver(command: string, args: string[], env: Record<string, string>): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(command, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const url = await new Promise<string>((found, failed) => {
    let output = '';
    const timer = setTimeout(() => failed(new Error(`receiver did not start: ${output}`)), 20_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const port = [...output.matchAll(/http:\/\/127\.0\.0\.1:(\d+)/g)].map((match) => match[1]).find((candidate) => candidate !== '0');
      if (port) {
        clearTimeout(timer);
        found(`http://127.0.0.1:${port}/hook`);
      }
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    child.on('exit', () => failed(new Error(`receiver exited: ${output}`)));
  });
  return { child, url };
}
