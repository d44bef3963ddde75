import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * `npm run gateway` starts from scripts/gateway.js, which builds a checkout that has no build yet. Here in a
 * project of its own, whose `build` stands in for the real one: it says so on stdout, as builds do, and writes
 * the command line's entry point.
 */
describe('the command line launcher (scripts/gateway.js)', () => {
  function project(): string {
    const root = mkdtempSync(join(tmpdir(), 'agw-launcher-'));
    mkdirSync(join(root, 'scripts'));
    copyFileSync(join(__dirname, '..', 'scripts', 'gateway.js'), join(root, 'scripts', 'gateway.js'));
    const entry = "console.log(JSON.stringify({ argv: process.argv.slice(2) }))";
    const build = `node -e "console.log('building...'); require('fs').mkdirSync('dist/src/cli', { recursive: true }); require('fs').writeFileSync('dist/src/cli/gateway.js', ${JSON.stringify(entry).replace(/"/g, '\\"')})"`;
    writeFileSync(join(root, 'package.json'), JSON.stringify({ name: 'launcher-check', private: true, scripts: { build } }));
    return root;
  }
  const launch = (root: string, args: string[], env: NodeJS.ProcessEnv = process.env) =>
    spawnSync(process.execPath, [join(root, 'scripts', 'gateway.js'), ...args], { cwd: root, env, encoding: 'utf8', timeout: 60_000 });

  it('builds a checkout with no build first, with the build on stderr, so stdout is only the command output', () => {
    const root = project();
    const first = launch(root, ['bootstrap', '--tenant', 'acme']);
    expect(first.status).toBe(0);
    expect(JSON.parse(first.stdout)).toEqual({ argv: ['bootstrap', '--tenant', 'acme'] });
    expect(first.stderr).toContain('building...');
    expect(existsSync(join(root, 'dist', 'src', 'cli', 'gateway.js'))).toBe(true);

    const again = launch(root, ['help']);
    expect([again.status, again.stdout, again.stderr]).toEqual([0, '{"argv":["help"]}\n', '']); // built: no build again
  });

  it("stops with the build's status when the build fails, running nothing", () => {
    const root = project();
    writeFileSync(join(root, 'package.json'), JSON.stringify({ name: 'launcher-check', private: true, scripts: { build: 'node -e "process.exit(3)"' } }));
    const failed = launch(root, ['help']);
    expect(failed.status).toBe(3);
    expect(failed.stdout).toBe('');
  });

  it('says so when it cannot start the build at all (no npm to run it)', () => {
    const root = project();
    const failed = launch(root, ['help'], { PATH: '' });
    expect(failed.status).toBe(1);
    expect(failed.stdout).toBe('');
    expect(failed.stderr).toMatch(/^cannot build the command line \(npm run build\): /);
  });
});
