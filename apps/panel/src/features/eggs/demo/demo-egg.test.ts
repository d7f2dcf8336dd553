import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bundledEggsDir, demoEggPath, loadBundledEggs } from '@aerie/panel/features/eggs/bundled-eggs';
import { parseEggExportText } from '@aerie/panel/features/eggs/ptdl/parse-egg-export';
import { doneMatcher } from '@aerie/shared/eggs/done-matcher';
import { parseStopCommand } from '@aerie/shared/eggs/stop-command';
import { afterEach, describe, expect, it } from 'vitest';
import { connectPlayer, killLeftovers, startProgram } from './line-harness';

const demoDir = join(bundledEggsDir, 'demo');
const serverSource = readFileSync(join(demoDir, 'demo-server.mjs'), 'utf8');
const eggText = readFileSync(demoEggPath, 'utf8');
const egg = parseEggExportText(eggText);

const temporaryDirs: string[] = [];
const temporaryDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'aerie-demo-egg-'));
  temporaryDirs.push(dir);
  return dir;
};
afterEach(() => {
  killLeftovers();
  for (const dir of temporaryDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const runBuild = (script: string, ...args: string[]) =>
  spawnSync(process.execPath, [script, ...args], { encoding: 'utf8', timeout: 10_000 });

describe('the committed demo egg', () => {
  it('is what build-egg.mjs writes from demo-server.mjs', () => {
    const check = runBuild(join(demoDir, 'build-egg.mjs'), '--check');
    expect(check.stderr).toBe('');
    expect(check.stdout).toBe('eggs/aerie-demo.json is up to date.\n');
    expect(check.status).toBe(0);
  });

  it('is reported stale once the server changes without a rebuild', () => {
    const copy = temporaryDir();
    cpSync(bundledEggsDir, copy, { recursive: true });
    writeFileSync(join(copy, 'demo', 'demo-server.mjs'), `${serverSource}// a change\n`);
    const check = runBuild(join(copy, 'demo', 'build-egg.mjs'), '--check');
    expect(check.status).toBe(1);
    expect(check.stderr).toContain('eggs/aerie-demo.json is stale');

    expect(runBuild(join(copy, 'demo', 'build-egg.mjs')).status).toBe(0);
    expect(runBuild(join(copy, 'demo', 'build-egg.mjs'), '--check').status).toBe(0);
    expect(
      parseEggExportText(readFileSync(join(copy, 'aerie-demo.json'), 'utf8')).scripts.installation.script,
    ).toContain('// a change');
  });

  it('imports as a PTDL_v2 egg with the settings the panel shows', () => {
    expect(JSON.parse(eggText).meta.version).toBe('PTDL_v2');
    expect(egg).toMatchObject({
      name: 'Aerie Demo',
      author: 'team@aerie.local',
      docker_images: { 'Node 20': 'node:20-bookworm-slim' },
      startup: 'node demo-server.mjs',
      file_denylist: [],
      config: { done: ['Server started on '], stop: 'stop', files: {}, logs: {} },
      scripts: { installation: { container: 'node:20-bookworm-slim', entrypoint: 'bash' } },
    });
    expect(parseStopCommand(egg.config.stop)).toEqual({ type: 'command', value: 'stop' });
    expect(egg.variables).toEqual([
      expect.objectContaining({
        env_variable: 'MOTD',
        rules: 'required|string|max:64',
        user_viewable: true,
        user_editable: true,
      }),
      expect.objectContaining({
        env_variable: 'MAX_PLAYERS',
        default_value: '10',
        user_viewable: true,
        user_editable: false,
      }),
    ]);
  });

  it('is the only bundled egg, and every bundled egg imports', () => {
    expect(loadBundledEggs().map(({ file, egg }) => [file, egg.name])).toEqual([[demoEggPath, 'Aerie Demo']]);
  });
});

describe('the demo egg install script', () => {
  it('installs demo-server.mjs into the server folder, and the installed server runs', async () => {
    const serverDir = join(temporaryDir(), 'server files');
    const scriptFile = join(temporaryDir(), 'install.sh');
    // The daemon mounts the server folder at /mnt/server; here it is a temporary folder instead.
    writeFileSync(scriptFile, egg.scripts.installation.script.replaceAll('/mnt/server', `'${serverDir}'`));

    const install = spawnSync(egg.scripts.installation.entrypoint, [scriptFile], {
      encoding: 'utf8',
      timeout: 20_000,
      env: { PATH: process.env.PATH ?? '', SERVER_MEMORY: '256', SERVER_PORT: '0', MOTD: 'ignored' },
    });
    expect(install.stderr).toBe('');
    expect(install.status).toBe(0);
    expect(install.stdout).toMatch(/Installed demo-server\.mjs \(\d+ bytes\)/);
    expect(readFileSync(join(serverDir, 'demo-server.mjs'), 'utf8')).toBe(serverSource);

    const defaults = Object.fromEntries(egg.variables.map((v) => [v.env_variable, v.default_value]));
    const server = startProgram('sh', ['-c', egg.startup], {
      cwd: serverDir,
      env: {
        PATH: process.env.PATH ?? '',
        ...defaults,
        SERVER_IP: '127.0.0.1',
        SERVER_PORT: '0',
        SERVER_MEMORY: '256',
      },
    });
    const started = await server.output.waitFor(doneMatcher(egg.config));
    const player = await connectPlayer(Number(/:(\d+) /.exec(started)?.[1]));
    expect(await player.lines.waitFor('Welcome')).toBe(
      'Welcome to Aerie Demo, player1! Welcome to the Aerie demo server!',
    );
    expect(server.output.lines).toContain('Preparing a world for up to 10 players...');

    server.send(egg.config.stop);
    expect(await server.exited()).toBe(0);
  });
});
