import { readFileSync, statSync } from 'node:fs';
import { BUNDLED_NEST } from '@aerie/panel/bootstrap/bootstrap-servers';
import { loadConfig } from '@aerie/panel/config/load-config';
import { importEgg } from '@aerie/panel/features/eggs/import-egg';
import { EggExportError } from '@aerie/panel/features/eggs/ptdl/egg-export-error';
import { MAX_EGG_EXPORT_BYTES, parseEggExportText } from '@aerie/panel/features/eggs/ptdl/parse-egg-export';
import { CliError } from './cli-error';
import { parseFlags } from './parse-flags';
import { prepare } from './prepare';

/**
 * `aerie egg:import FILE [--nest NAME]`: imports an egg export (PTDL_v1/v2 JSON, Pelican PLCN_v1 JSON or YAML),
 * or updates the egg it already has.
 */
export async function eggImport(argv: string[]): Promise<void> {
  const file = argv[0] && !argv[0].startsWith('--') ? argv[0] : undefined;
  if (!file) throw new CliError('Missing the egg file: aerie egg:import FILE [--nest NAME].');
  const { values } = parseFlags(argv.slice(1), { values: ['nest'], booleans: [] });
  const nestName = values.nest?.trim() || BUNDLED_NEST;
  let text: string;
  try {
    // Refused before reading, so a mistaken path to a huge file is not loaded whole.
    const { size } = statSync(file);
    if (size > MAX_EGG_EXPORT_BYTES) {
      throw new CliError(`${file}: ${EggExportError.tooLarge(size, MAX_EGG_EXPORT_BYTES).message}`);
    }
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if (error instanceof CliError) throw error;
    throw new CliError(
      `Cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}.`,
    );
  }
  let egg: ReturnType<typeof parseEggExportText>;
  try {
    egg = parseEggExportText(text);
  } catch (error) {
    if (error instanceof EggExportError) throw new CliError(`${file}: ${error.message}`);
    throw error;
  }
  const config = loadConfig();
  const { db } = await prepare(config, { migrate: true });
  try {
    const imported = await importEgg(db, egg, { nestName });
    const count = `${imported.variables} variable${imported.variables === 1 ? '' : 's'}`;
    console.log(
      `${imported.created ? 'Imported' : 'Updated'} egg "${imported.name}" (${imported.uuid}) in nest "${imported.nestName}" with ${count}.`,
    );
  } finally {
    await db.destroy();
  }
}
