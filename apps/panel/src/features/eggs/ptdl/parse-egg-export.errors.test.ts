import { describe, expect, it } from 'vitest';
import { EggExportError } from './egg-export-error';
import { parseEggExport, parseEggExportText } from './parse-egg-export';

/** A small valid PTDL_v2 export; each case changes one thing. */
const validEgg = () => ({
  meta: { version: 'PTDL_v2', update_url: null },
  exported_at: '2026-01-01T00:00:00+00:00',
  name: 'Tiny',
  author: 'someone@example.com',
  description: null,
  features: null,
  docker_images: { 'Node 20': 'node:20' },
  file_denylist: [],
  startup: 'node server.js',
  config: { files: '{}', startup: '{"done": "Ready"}', logs: '{}', stop: 'stop' },
  scripts: { installation: { script: 'echo hi', container: 'node:20', entrypoint: 'bash' } },
  variables: [
    {
      name: 'Port note',
      description: 'A note',
      env_variable: 'NOTE',
      default_value: 'x',
      user_viewable: true,
      user_editable: true,
      rules: 'required|string',
      field_type: 'text',
    },
  ],
});

type Path = readonly (string | number)[];
type Json = Record<string | number, unknown>;

/** The valid egg with the values at the given paths replaced; `undefined` removes the field. */
const changed = (...changes: [Path, unknown][]): Json => {
  const egg: Json = validEgg();
  for (const [path, value] of changes) {
    const parent = path.slice(0, -1).reduce<Json>((node, key) => node[key] as Json, egg);
    const key = path[path.length - 1] as string | number;
    if (value === undefined) delete parent[key];
    else parent[key] = value;
  }
  return egg;
};

/** The thrown error, so a case can check its code and message together. */
const failure = (input: unknown): EggExportError => {
  try {
    parseEggExport(input);
  } catch (error) {
    if (error instanceof EggExportError) return error;
    throw error;
  }
  throw new Error('the egg was accepted');
};

describe('files that are not egg exports', () => {
  it.each([
    [
      null,
      'not_an_object',
      'This file is not a Pterodactyl or Pelican egg export: expected a JSON or YAML object.',
    ],
    [
      [],
      'not_an_object',
      'This file is not a Pterodactyl or Pelican egg export: expected a JSON or YAML object.',
    ],
    [
      'PTDL_v2',
      'not_an_object',
      'This file is not a Pterodactyl or Pelican egg export: expected a JSON or YAML object.',
    ],
    [
      { name: 'x' },
      'unsupported_version',
      'This file is not a Pterodactyl or Pelican egg export: meta.version must be PTDL_v1, PTDL_v2, PLCN_v1, PLCN_v2 or PLCN_v3 (found nothing).',
    ],
    [
      { meta: 'PTDL_v2' },
      'unsupported_version',
      'This file is not a Pterodactyl or Pelican egg export: meta.version must be PTDL_v1, PTDL_v2, PLCN_v1, PLCN_v2 or PLCN_v3 (found nothing).',
    ],
    [
      { ...validEgg(), meta: { version: 'PLCN_v4' } },
      'unsupported_version',
      'This file is not a Pterodactyl or Pelican egg export: meta.version must be PTDL_v1, PTDL_v2, PLCN_v1, PLCN_v2 or PLCN_v3 (found "PLCN_v4").',
    ],
    [
      { ...validEgg(), meta: { version: 2 } },
      'unsupported_version',
      'This file is not a Pterodactyl or Pelican egg export: meta.version must be PTDL_v1, PTDL_v2, PLCN_v1, PLCN_v2 or PLCN_v3 (found 2).',
    ],
  ])('refuses %j', (input, code, message) => {
    const error = failure(input);
    expect(error.code).toBe(code);
    expect(error.message).toBe(message);
  });

  it('refuses text that is not JSON, and reads a file with a byte order mark', () => {
    expect(() => parseEggExportText('{"meta": ')).toThrow(
      /^This file is not a Pterodactyl or Pelican egg export: it is not valid JSON \(.+\)\.$/,
    );
    expect(parseEggExportText(`\uFEFF${JSON.stringify(validEgg())}`).name).toBe('Tiny');
  });
});

describe('egg exports with bad fields', () => {
  it.each<[string, Path, unknown, string]>([
    ['no name', ['name'], undefined, 'name is missing'],
    ['an empty name', ['name'], '  ', 'name must not be empty'],
    ['a numeric author', ['author'], 5, 'author must be a string'],
    ['no startup command', ['startup'], undefined, 'startup is missing'],
    ['no config', ['config'], undefined, 'config is missing'],
    ['no stop command', ['config', 'stop'], undefined, 'config.stop is missing'],
    [
      'config.files that is not JSON',
      ['config', 'files'],
      '{"server.properties": ',
      'config.files is not valid JSON',
    ],
    ['config.startup that is a list', ['config', 'startup'], '[]', 'config.startup must hold a JSON object'],
    [
      'a config-file rule without a parser',
      ['config', 'files'],
      '{"server.properties": {"find": {}}}',
      'config.files["server.properties"] must have a parser name and a find object',
    ],
    [
      'a done matcher that is a number',
      ['config', 'startup'],
      '{"done": 5}',
      'config.startup.done must be a string or a list of strings',
    ],
    [
      'a done regex that does not compile',
      ['config', 'startup'],
      '{"done": ["Ready", "regex:(unclosed"]}',
      'config.startup.done[1] is not a valid regular expression',
    ],
    ['no install script block', ['scripts', 'installation'], undefined, 'scripts.installation is missing'],
    [
      'no install container',
      ['scripts', 'installation', 'container'],
      undefined,
      'scripts.installation.container is missing',
    ],
    ['empty docker images', ['docker_images'], {}, 'docker_images must name at least one image'],
    ['no docker images', ['docker_images'], undefined, 'docker_images must name at least one image'],
    ['variables that are not a list', ['variables'], {}, 'variables must be a list'],
    [
      'a variable without env_variable',
      ['variables', 0, 'env_variable'],
      undefined,
      'variables[0].env_variable is missing',
    ],
    [
      'a variable name with a dash',
      ['variables', 0, 'env_variable'],
      'MY-VAR',
      'variables[0].env_variable must be 1 to 191 letters, digits or underscores',
    ],
    [
      'a variable the daemon sets itself',
      ['variables', 0, 'env_variable'],
      'SERVER_PORT',
      'variables[0].env_variable is a name the daemon sets itself',
    ],
    [
      'a variable flag that is not a boolean',
      ['variables', 0, 'user_editable'],
      'yes',
      'variables[0].user_editable must be true or false',
    ],
    [
      'the same variable twice',
      ['variables', 1],
      { ...validEgg().variables[0], name: 'Again' },
      'variables[1].env_variable repeats NOTE',
    ],
  ])('refuses %s', (_case, path, value, expected) => {
    const error = failure(changed([path, value]));
    expect(error.code).toBe('invalid_egg');
    expect(error.message.startsWith(`This egg export is not valid: ${expected}`)).toBe(true);
    expect(error.message.endsWith('.')).toBe(true);
  });

  it('lists every problem in one message', () => {
    const error = failure(changed([['name'], undefined], [['variables', 0, 'env_variable'], 'HOME']));
    expect(error.message).toBe(
      'This egg export is not valid: name is missing; variables[0].env_variable is a name the daemon sets itself.',
    );
    expect(error.issues).toEqual([
      { path: 'name', message: 'is missing' },
      { path: 'variables[0].env_variable', message: 'is a name the daemon sets itself' },
    ]);
  });

  it('refuses a PTDL_v1 export without images', () => {
    const error = failure(changed([['meta', 'version'], 'PTDL_v1'], [['docker_images'], null]));
    expect(error.message).toBe('This egg export is not valid: images must name at least one image.');
  });
});

describe('what older or hand-written exports may look like', () => {
  it('reads 0/1 and "1"/"0" flags, rule lists, numeric defaults and missing field types', () => {
    const egg = parseEggExport({
      ...validEgg(),
      meta: { version: 'PTDL_v1' },
      docker_images: undefined,
      image: 'quay.io/pterodactyl/core:java',
      variables: [
        {
          name: 'A',
          description: null,
          env_variable: 'A',
          default_value: 25,
          user_viewable: 1,
          user_editable: '0',
          rules: ['required', 'integer'],
        },
        {
          name: 'B',
          env_variable: 'B',
          default_value: null,
          user_viewable: '1',
          user_editable: 0,
          rules: null,
        },
      ],
    });
    expect(egg.docker_images).toEqual({ 'quay.io/pterodactyl/core:java': 'quay.io/pterodactyl/core:java' });
    expect(egg.variables).toEqual([
      {
        name: 'A',
        description: '',
        env_variable: 'A',
        default_value: '25',
        user_viewable: true,
        user_editable: false,
        rules: 'required|integer',
        field_type: 'text',
      },
      {
        name: 'B',
        description: '',
        env_variable: 'B',
        default_value: '',
        user_viewable: true,
        user_editable: false,
        rules: '',
        field_type: 'text',
      },
    ]);
  });

  it('reads config blocks written as objects, a list of done matchers and empty deny-list entries', () => {
    const egg = parseEggExport({
      ...validEgg(),
      uuid: '7f3b8f2c-6a43-4c7e-9d8e-2b8a1d6f0c11',
      file_denylist: ['', '*.jar', ''],
      config: {
        files: { 'config.yml': { parser: 'yaml', find: { 'server.port': '{{server.build.default.port}}' } } },
        startup: { done: ['Ready', 'regex:^Listening on \\d+'], strip_ansi: true },
        logs: null,
        stop: '^SIGTERM',
        extends: null,
      },
    });
    expect(egg.uuid).toBe('7f3b8f2c-6a43-4c7e-9d8e-2b8a1d6f0c11');
    expect(egg.file_denylist).toEqual(['*.jar']);
    expect(egg.config.done).toEqual(['Ready', 'regex:^Listening on \\d+']);
    expect(egg.config.strip_ansi).toBe(true);
    expect(egg.config.files['config.yml']?.parser).toBe('yaml');
    expect(egg.config.logs).toEqual({});
    expect(JSON.parse(egg.config.source.files)).toEqual(egg.config.files);
    expect(egg.config.source.logs).toBe('{}');
  });

  it('reads an egg without variables or install script text', () => {
    const egg = parseEggExport({
      ...validEgg(),
      variables: undefined,
      scripts: { installation: { script: null, container: 'alpine', entrypoint: 'ash' } },
    });
    expect(egg.variables).toEqual([]);
    expect(egg.scripts.installation.script).toBe('');
    expect(egg.config.done).toEqual(['Ready']);
  });
});
