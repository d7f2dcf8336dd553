import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { doneMatcher } from '@aerie/shared/eggs/done-matcher';
import { parseStopCommand } from '@aerie/shared/eggs/stop-command';
import { describe, expect, it } from 'vitest';
import { parseEggExportText } from './parse-egg-export';

// Unchanged copies of community and Pterodactyl exports: they must import without edits.
const fixturesDir = fileURLToPath(new URL('../../../../test/fixtures/eggs/', import.meta.url));
const fixtures = ['ptdl-v1', 'ptdl-v2'].flatMap((version) =>
  readdirSync(`${fixturesDir}${version}`)
    .filter((file) => file.endsWith('.json'))
    .map((file) => `${version}/${file}`),
);
const readFixture = (name: string) => readFileSync(`${fixturesDir}${name}`, 'utf8');

describe('every bundled fixture imports unchanged', () => {
  it('finds the v1 and v2 fixtures', () => {
    expect(fixtures.filter((name) => name.startsWith('ptdl-v1/'))).toHaveLength(4);
    expect(fixtures.filter((name) => name.startsWith('ptdl-v2/'))).toHaveLength(5);
  });

  it.each(fixtures)('%s keeps what the export says', (name) => {
    const text = readFixture(name);
    const raw = JSON.parse(text);
    const egg = parseEggExportText(text);

    expect(egg.version).toBe(raw.meta.version);
    expect(egg.name).toBe(raw.name);
    expect(egg.author).toBe(raw.author);
    expect(egg.description).toBe(raw.description);
    expect(egg.features).toEqual(raw.features ?? []);
    expect(egg.startup).toBe(raw.startup);
    expect(egg.file_denylist).toEqual(raw.file_denylist);

    const images = raw.docker_images ?? Object.fromEntries(raw.images.map((image: string) => [image, image]));
    expect(egg.docker_images).toEqual(images);

    expect(egg.config.stop).toBe(raw.config.stop);
    expect(egg.config.source).toEqual({
      files: raw.config.files,
      startup: raw.config.startup,
      logs: raw.config.logs,
    });
    expect(egg.config.files).toEqual(JSON.parse(raw.config.files));
    expect(egg.config.startup).toEqual(JSON.parse(raw.config.startup));
    expect(egg.config.done).toEqual([JSON.parse(raw.config.startup).done]);
    expect(egg.config.logs).toEqual(JSON.parse(raw.config.logs));
    expect(egg.scripts.installation).toEqual(raw.scripts.installation);

    expect(egg.variables).toEqual(
      raw.variables.map((variable: Record<string, unknown>) => ({ field_type: 'text', ...variable })),
    );
  });
});

describe('what an administrator sees after importing', () => {
  it('turns the PTDL_v1 image list of Paper into one entry per image', () => {
    const egg = parseEggExportText(readFixture('ptdl-v1/minecraft-paper.json'));
    expect(egg.version).toBe('PTDL_v1');
    expect(egg.docker_images).toEqual({
      'ghcr.io/pterodactyl/yolks:java_8': 'ghcr.io/pterodactyl/yolks:java_8',
      'ghcr.io/pterodactyl/yolks:java_11': 'ghcr.io/pterodactyl/yolks:java_11',
      'ghcr.io/pterodactyl/yolks:java_16': 'ghcr.io/pterodactyl/yolks:java_16',
      'ghcr.io/pterodactyl/yolks:java_17': 'ghcr.io/pterodactyl/yolks:java_17',
    });
    expect(egg.features).toEqual(['eula', 'java_version', 'pid_limit']);
    expect(egg.variables.map((variable) => variable.field_type)).toEqual(['text', 'text', 'text', 'text']);
  });

  it('keeps the labels of a PTDL_v2 image map and the Paper variables', () => {
    const egg = parseEggExportText(readFixture('ptdl-v2/minecraft-paper.json'));
    expect(Object.keys(egg.docker_images)).toEqual(['Java 21', 'Java 17', 'Java 16', 'Java 11', 'Java 8']);
    expect(egg.docker_images['Java 21']).toBe('ghcr.io/pterodactyl/yolks:java_21');
    const jar = egg.variables.find((variable) => variable.env_variable === 'SERVER_JARFILE');
    expect(jar).toMatchObject({
      name: 'Server Jar File',
      default_value: 'server.jar',
      user_viewable: true,
      user_editable: true,
      rules: 'required|regex:/^([\\w\\d._-]+)(\\.jar)$/',
    });
  });

  it('keeps the config-file rules of Paper, placeholders included', () => {
    const egg = parseEggExportText(readFixture('ptdl-v2/minecraft-paper.json'));
    expect(egg.config.files['server.properties']).toEqual({
      parser: 'properties',
      find: {
        'server-ip': '0.0.0.0',
        'server-port': '{{server.build.default.port}}',
        'query.port': '{{server.build.default.port}}',
      },
    });
  });

  it('starts Minecraft when its "Done" line appears, not before', () => {
    const isDone = doneMatcher(parseEggExportText(readFixture('ptdl-v1/vanilla-minecraft.json')).config);
    expect(isDone('[12:00:01] [Server thread/INFO]: Preparing spawn area: 84%')).toBe(false);
    expect(isDone('[12:00:03] [Server thread/INFO]: Done (3.214s)! For help, type "help"')).toBe(true);
  });

  it('keeps hidden, read-only variables hidden and read-only', () => {
    const egg = parseEggExportText(readFixture('ptdl-v1/garrys-mod.json'));
    expect(egg.variables.find((variable) => variable.env_variable === 'SRCDS_APPID')).toMatchObject({
      default_value: '4020',
      user_viewable: false,
      user_editable: false,
      rules: 'required|string|max:20',
    });
    expect(egg.features).toEqual(['gsl_token', 'steam_disk_space']);
  });

  it('reads the stop settings: a command, or Ctrl-C as SIGINT', () => {
    const stops = Object.fromEntries(
      fixtures.map((name) => [name, parseStopCommand(parseEggExportText(readFixture(name)).config.stop)]),
    );
    expect(stops['ptdl-v1/teamspeak3-server.json']).toEqual({ type: 'signal', value: 'SIGINT' });
    expect(stops['ptdl-v2/valheim.json']).toEqual({ type: 'signal', value: 'SIGINT' });
    expect(stops['ptdl-v2/factorio.json']).toEqual({ type: 'command', value: '/quit' });
    expect(stops['ptdl-v2/t-modloader.json']).toEqual({ type: 'command', value: 'exit' });
  });

  it('keeps the install script byte for byte, CRLF line ends included', () => {
    const text = readFixture('ptdl-v2/valheim.json');
    const egg = parseEggExportText(text);
    expect(egg.scripts.installation.script).toBe(JSON.parse(text).scripts.installation.script);
    expect(egg.scripts.installation.script).toContain('\r\n');
    expect(egg.scripts.installation.script).toContain('/mnt/server');
    expect(egg.scripts.installation.entrypoint).toBe('bash');
  });

  it('keeps the custom log settings of TeamSpeak', () => {
    const egg = parseEggExportText(readFixture('ptdl-v1/teamspeak3-server.json'));
    expect(egg.config.logs).toEqual({ custom: true, location: 'logs/ts3.log' });
    expect(egg.features).toEqual([]);
  });
});
