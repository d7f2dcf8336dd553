import { describe, expect, it } from 'vitest';
import { EggExportError } from './egg-export-error';
import { MAX_EGG_EXPORT_BYTES, parseEggExport, parseEggExportText } from './parse-egg-export';
import { pelicanYamlEgg } from './pelican-egg.test-fixture';

/** The thrown error, so a case can check its code and message together. */
const failure = (parse: () => unknown): EggExportError => {
  try {
    parse();
  } catch (error) {
    if (error instanceof EggExportError) return error;
    throw error;
  }
  throw new Error('the egg was accepted');
};

describe('Pelican PLCN exports', () => {
  it('reads a PLCN_v3 YAML export: startup_commands, config objects, rule lists, `{  }` lists', () => {
    const egg = parseEggExportText(pelicanYamlEgg);
    expect(egg).toMatchObject({
      version: 'PLCN_v3',
      update_url: 'https://example.com/eggs/egg-lantern.yaml',
      exported_at: '2026-03-02T10:15:00+00:00',
      uuid: '3f0c6a52-7d1e-4b8a-9c2f-5e6d7a8b9c0d',
      name: 'Lantern',
      author: 'eggs@example.com',
      description: 'A small Java game server, exported from Pelican for the import tests.',
      features: ['eula', 'java_version'],
      docker_images: {
        'Java 21': 'ghcr.io/example/yolks:java_21',
        'Java 17': 'ghcr.io/example/yolks:java_17',
      },
      file_denylist: [],
      // The first of the named startup commands.
      startup: 'java -Xms128M -XX:MaxRAMPercentage=95.0 -jar {{SERVER_JARFILE}}',
    });
    expect(Object.keys(egg)).not.toContain('tags');

    // Pelican's placeholder names become the ones the panel fills in; other values keep their YAML types.
    const files = {
      'server.properties': {
        parser: 'properties',
        find: {
          'server-ip': '',
          'server-port': '{{server.build.default.port}}',
          motd: '{{server.build.env.MOTD}}',
          'max-players': 20,
        },
      },
    };
    expect(egg.config.files).toEqual(files);
    expect(JSON.parse(egg.config.source.files)).toEqual(files);
    expect(egg.config.done).toEqual([')! For help, type ', 'regex:^Server ready in \\d+ms']);
    expect(egg.config.logs).toEqual({});
    expect(egg.config.source.logs).toBe('{}');
    expect(egg.config.stop).toBe('stop');
    expect(egg.scripts.installation).toEqual({
      script:
        '#!/bin/ash\n# Lantern install script\ncd /mnt/server\ncurl -sSL -o "$SERVER_JARFILE" "https://example.com/lantern/$VERSION/server.jar"',
      container: 'ghcr.io/example/installers:alpine',
      entrypoint: 'ash',
    });

    // In Pelican's display order (`sort`), rule lists joined, a boolean default as Pelican stores it.
    expect(egg.variables).toEqual([
      {
        name: 'Version',
        description: 'The version to download.\r\n\r\nLeave at latest for the newest one.',
        env_variable: 'VERSION',
        default_value: 'latest',
        user_viewable: true,
        user_editable: true,
        rules: 'required|string|max:20',
        field_type: 'text',
      },
      {
        name: 'Server Jar File',
        description: 'The jar file the server runs.',
        env_variable: 'SERVER_JARFILE',
        default_value: 'server.jar',
        user_viewable: true,
        user_editable: true,
        rules: 'required|regex:/^([\\w\\d._-]+)(\\.jar)$/',
        field_type: 'text',
      },
      {
        name: 'Message of the day',
        description:
          'Shown in the server list. Long descriptions are wrapped by the exporter\nover two lines.',
        env_variable: 'MOTD',
        default_value: 'A Lantern server',
        user_viewable: true,
        user_editable: true,
        rules: 'nullable|string|max:60',
        field_type: 'text',
      },
      {
        name: 'Whitelist',
        description: '',
        env_variable: 'WHITELIST',
        default_value: '0',
        user_viewable: true,
        user_editable: false,
        rules: 'boolean',
        field_type: 'text',
      },
    ]);
  });

  it('reads an older PLCN_v1 export: one `startup`, config blocks as JSON text, `|` rule strings', () => {
    const yaml = `meta:
  version: PLCN_v1
  update_url: null
name: 'Old Pelican'
author: old@example.com
uuid: 0c9d8e7f-6a5b-4c3d-8e2f-1a0b9c8d7e6f
description: null
features: null
docker_images:
  Debian: 'ghcr.io/example/yolks:debian'
file_denylist:
  - '*.log'
startup: './run.sh --port {{SERVER_PORT}}'
config:
  files: '{"config.json": {"parser": "json", "find": {"port": "{{server.build.default.port}}"}}}'
  startup: '{"done": "Listening"}'
  logs: '{}'
  stop: '^C'
scripts:
  installation:
    script: "#!/bin/bash\\r\\necho install\\r\\n"
    container: 'ghcr.io/example/installers:debian'
    entrypoint: bash
variables:
  -
    name: Seed
    description: 'World seed'
    env_variable: SEED
    default_value: 12345
    user_viewable: true
    user_editable: true
    rules: 'nullable|numeric'
`;
    const egg = parseEggExportText(yaml);
    expect(egg.version).toBe('PLCN_v1');
    expect(egg.startup).toBe('./run.sh --port {{SERVER_PORT}}');
    expect(egg.features).toEqual([]);
    expect(egg.file_denylist).toEqual(['*.log']);
    expect(egg.config.source.files).toBe(
      '{"config.json": {"parser": "json", "find": {"port": "{{server.build.default.port}}"}}}',
    );
    expect(egg.config.done).toEqual(['Listening']);
    expect(egg.config.stop).toBe('^C');
    expect(egg.scripts.installation.script).toBe('#!/bin/bash\r\necho install\r\n');
    expect(egg.variables).toEqual([
      {
        name: 'Seed',
        description: 'World seed',
        env_variable: 'SEED',
        default_value: '12345',
        user_viewable: true,
        user_editable: true,
        rules: 'nullable|numeric',
        field_type: 'text',
      },
    ]);
  });

  it('reads the same egg exported as JSON, as text or as a parsed object', () => {
    const json = {
      meta: { version: 'PLCN_v3', update_url: null },
      name: 'Lantern',
      author: 'eggs@example.com',
      tags: [],
      docker_images: { 'Java 21': 'ghcr.io/example/yolks:java_21' },
      file_denylist: [],
      startup_commands: { Default: 'java -jar {{SERVER_JARFILE}}' },
      config: { files: '[]', startup: '{"done": "Ready"}', logs: '[]', stop: 'stop' },
      scripts: { installation: { script: 'echo hi', container: 'alpine', entrypoint: 'ash' } },
      variables: [],
    };
    for (const egg of [parseEggExportText(JSON.stringify(json, null, 4)), parseEggExport(json)]) {
      expect(egg.version).toBe('PLCN_v3');
      expect(egg.startup).toBe('java -jar {{SERVER_JARFILE}}');
      expect(egg.config.files).toEqual({});
      expect(egg.config.logs).toEqual({});
      expect(egg.config.done).toEqual(['Ready']);
    }
  });

  it('names startup_commands when a PLCN_v3 export has no startup command', () => {
    const error = failure(() =>
      parseEggExportText(
        pelicanYamlEgg.replace(/startup_commands:\n(?: {2}.+\n)+/, 'startup_commands: {  }\n'),
      ),
    );
    expect(error.code).toBe('invalid_egg');
    expect(error.message).toBe(
      'This egg export is not valid: startup_commands must name at least one startup command.',
    );
  });

  it('reports the problems of a Pelican export by field, as for a Pterodactyl one', () => {
    const error = failure(() =>
      parseEggExportText(pelicanYamlEgg.replace('env_variable: MOTD', 'env_variable: SERVER_PORT')),
    );
    expect(error.message).toBe(
      'This egg export is not valid: variables[2].env_variable is a name the daemon sets itself.',
    );
  });
});

describe('YAML the importer refuses', () => {
  it('refuses a "billion laughs" document of nested aliases with a clear message', () => {
    const levels = ['lol: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]'];
    for (let level = 1; level <= 9; level++) {
      levels.push(
        `l${level}: &l${level} [${Array(10)
          .fill(`*l${level - 1}`)
          .join(', ')}]`,
      );
    }
    const bomb = `meta:\n  version: PLCN_v3\n${levels.join('\n')}\n`;
    const started = Date.now();
    const error = failure(() => parseEggExportText(bomb));
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(error.code).toBe('invalid_yaml');
    expect(error.message).toBe(
      'This file is not a Pterodactyl or Pelican egg export: it is neither JSON nor valid YAML (its aliases ' +
        'expand too far, past the limit of 100; anchors and aliases are not needed in an egg).',
    );
  });

  it('still reads a YAML export with an alias or two', () => {
    const egg = parseEggExportText(
      pelicanYamlEgg.replace(
        "'Java 21': 'ghcr.io/example/yolks:java_21'",
        "'Java 21': &java21 'ghcr.io/example/yolks:java_21'\n  'Java 21 again': *java21",
      ),
    );
    expect(egg.docker_images['Java 21 again']).toBe('ghcr.io/example/yolks:java_21');
  });

  it.each([
    ['a syntax error', 'meta:\n  version: [PLCN_v3\nname: x\n', /at line 3, column 1\)\.$/],
    ['a repeated key', 'name: a\nname: b\n', /\(Map keys must be unique at line 2, column 1\)\.$/],
    ['two documents', 'name: a\n---\nname: b\n', /\(Source contains multiple documents;/],
  ])('refuses %s with the position', (_case, text, message) => {
    const error = failure(() => parseEggExportText(text));
    expect(error.code).toBe('invalid_yaml');
    expect(error.message).toMatch(
      /^This file is not a Pterodactyl or Pelican egg export: it is neither JSON nor/,
    );
    expect(error.message).toMatch(message);
  });

  it('refuses text that is a YAML scalar, not a mapping', () => {
    const error = failure(() => parseEggExportText('<!doctype html><html>Not found</html>'));
    expect(error.code).toBe('not_an_object');
    expect(error.message).toBe(
      'This file is not a Pterodactyl or Pelican egg export: expected a JSON or YAML object.',
    );
  });

  it('reads text that starts like JSON only as JSON', () => {
    const error = failure(() => parseEggExportText('  {"meta": {"version": "PLCN_v3"}, name: x}'));
    expect(error.code).toBe('invalid_json');
  });

  it('refuses a file larger than the 1 MiB request limit before parsing it', () => {
    const text = `meta:\n  version: PLCN_v3\ndescription: '${'x'.repeat(MAX_EGG_EXPORT_BYTES)}'\n`;
    const error = failure(() => parseEggExportText(text));
    expect(error.code).toBe('too_large');
    expect(error.message).toBe(
      `This egg file is too large (${text.length} bytes): at most 1048576 bytes (1 MiB) are read.`,
    );
  });
});
