import { z } from 'zod';
import { requiredString } from '../validation/rules';

/**
 * POST /api/application/nests/{nest}/eggs/import: the body is the egg export itself (a PTDL_v1, PTDL_v2 or
 * Pelican PLCN JSON object), or `{"file": "<the export file's text>"}` for a client that has the file and not
 * its parsed JSON; the text may be JSON or, as Pelican exports it, YAML. Only the second form is validated here;
 * the export is checked by the panel's egg parser (which also bounds the text: 1 MiB, few YAML aliases).
 */
export const eggImportFileBodySchema = z.object({
  file: requiredString(),
});

/** True when the body is the `{"file": …}` form rather than the export object. */
export const isEggImportFileBody = (body: unknown): boolean =>
  typeof body === 'object' && body !== null && !Array.isArray(body) && Object.hasOwn(body, 'file');
