import { z } from 'zod';
import type { LaravelRule } from '../validation/laravel-messages';
import { nullableString, requiredArray, requiredNumeric, requiredString, rule } from '../validation/rules';

/**
 * Server-side rules of the files API inputs (pterodactyl-client-api.md §7.2 "Files"), read after
 * `normalizeInput(…, { trim: false })`: file names keep their spaces, empty strings count as missing.
 * Paths are not checked here: the daemon resolves every path inside the server's root or refuses it.
 */

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** `files.*` => `string` (a null item fails too: Laravel runs the rule on any item that is present). */
const nameItem = () => z.string({ error: 'string' satisfies LaravelRule });

/** `?file=` of contents, download and write: required|string. */
export const fileQuerySchema = z.object({ file: requiredString() });

/** `?directory=` of list: optional (the panel asks for `/` without it). */
export const directoryQuerySchema = z.object({ directory: nullableString() });

/** PUT …/files/rename: root required|string; files required|array; files.* array; files.*.to, .from required|string. */
export const renameFilesBodySchema = z.object({
  root: requiredString(),
  files: requiredArray(
    z.object({ to: requiredString(), from: requiredString() }, { error: 'array' satisfies LaravelRule }),
  ),
});

/** POST …/files/copy: location required|string (the full path of the file to duplicate). */
export const copyFileBodySchema = z.object({ location: requiredString() });

/** POST …/files/compress: root sometimes|nullable|string; files required|array; files.* string. */
export const compressFilesBodySchema = z.object({
  root: nullableString(),
  files: requiredArray(nameItem()),
});

/** POST …/files/decompress: root sometimes|nullable|string; file required|string. */
export const decompressFileBodySchema = z.object({ root: nullableString(), file: requiredString() });

/** POST …/files/delete: root required|string; files required|array; files.* string. */
export const deleteFilesBodySchema = z.object({ root: requiredString(), files: requiredArray(nameItem()) });

/** POST …/files/create-folder: root sometimes|nullable|string (`/` when absent); name required|string. */
export const createFolderBodySchema = z.object({ root: nullableString(), name: requiredString() });

/**
 * POST …/files/chmod: root required|string; files required|array; files.*.file required|string;
 * files.*.mode required|numeric (kept as the string the daemon takes, e.g. `"755"`). Laravel has no rule on the
 * items themselves, so an item that is not an object fails its two fields.
 */
export const chmodFilesBodySchema = z.object({
  root: requiredString(),
  files: requiredArray(
    z.preprocess(
      (item) => (isRecord(item) ? item : {}),
      z.object({ file: requiredString(), mode: requiredNumeric() }),
    ),
  ),
});

/** Laravel's `url` (Pterodactyl's old message `The url format is invalid.`): a scheme, `://` and a host. */
const URL_SHAPE = /^[a-z][a-z0-9+.-]*:\/\/[^\s/?#]+[^\s]*$/i;
/** The longest URL a pull takes (Laravel has no bound; a daemon request line should not be megabytes). */
export const PULL_URL_MAX_LENGTH = 2048;

/** `boolean` without `nullable`: may be left out; when sent, true, false, 0, 1, "0" or "1". */
const optionalBoolean = () =>
  z
    .unknown()
    .superRefine((value, ctx) => {
      if (value !== undefined && ![true, false, 0, 1, '0', '1'].includes(value as never)) {
        ctx.addIssue({ code: 'custom', message: 'boolean' satisfies LaravelRule });
      }
    })
    .transform((value) => (value === undefined ? undefined : value === true || value === 1 || value === '1'))
    .optional();

/**
 * POST …/files/pull (PullFileRequest): url required|string|url; directory, filename nullable|string; use_header,
 * foreground boolean. Which hosts may be reached, and the file name's safety, are the daemon's to judge.
 */
export const pullFileBodySchema = z.object({
  url: requiredString()
    .refine((value) => URL_SHAPE.test(value) && URL.canParse(value), rule('url'))
    .max(PULL_URL_MAX_LENGTH, rule('max')),
  directory: nullableString(),
  filename: nullableString(),
  use_header: optionalBoolean(),
  foreground: optionalBoolean(),
});
