import { isIP } from 'node:net';
import { validationFailed } from '@aerie/panel/http/errors';
import { pathPastDepth } from '@aerie/panel/http/nesting';
import { nodeReportedActivityEvents } from '@aerie/shared/activity/activity-events';
import { remoteActivityLimits as limits } from '@aerie/shared/activity/remote-activity-wire';
import type { LaravelRule } from '@aerie/shared/validation/laravel-messages';
import { requiredArray, requiredString, rule } from '@aerie/shared/validation/rules';
import { toValidationErrors } from '@aerie/shared/validation/validation-errors';
import { z } from 'zod';

const UUID = /^[\da-f]{8}-[\da-f]{4}-[\da-f]{4}-[\da-f]{4}-[\da-f]{12}$/i;
/** RFC 3339 as Wings writes it (Go's time.RFC3339Nano), an offset or Z required. */
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?:Z|[+-]\d{2}:\d{2})$/i;
/** Before this no node did anything: a timestamp earlier is a broken clock or a forgery. */
const EARLIEST = Date.UTC(2000, 0, 1);

const uuid = () => requiredString().regex(UUID, rule('uuid'));

const path = requiredString().min(1, rule('required')).max(limits.pathLength, rule('max'));
const paths = z
  .array(path, { error: 'array' satisfies LaravelRule })
  .min(1, rule('required'))
  .max(limits.filesPerRow, rule('max'));
const moves = z
  .array(z.object({ from: path, to: path }, { error: 'array' satisfies LaravelRule }), {
    error: 'array' satisfies LaravelRule,
  })
  .min(1, rule('required'))
  .max(limits.filesPerRow, rule('max'));

/** What `files` holds for each event; a login carries no files. */
const filesOf: Record<(typeof nodeReportedActivityEvents)[number], z.ZodType | undefined> = {
  'server:sftp.login': undefined,
  'server:sftp.write': paths,
  'server:sftp.create': paths,
  'server:sftp.create-directory': paths,
  'server:sftp.delete': paths,
  'server:sftp.rename': moves,
};

const row = z
  .object({
    user: uuid(),
    server: uuid(),
    event: z.enum(nodeReportedActivityEvents, {
      error: (issue) => (issue.input == null ? 'required' : 'in') satisfies LaravelRule,
    }),
    metadata: z
      .record(z.string(), z.unknown(), { error: 'array' satisfies LaravelRule })
      .nullish()
      .superRefine((metadata, ctx) => {
        if (metadata && JSON.stringify(metadata).length > limits.metadataLength) {
          ctx.addIssue({ code: 'custom', message: 'max', params: { max: limits.metadataLength } });
        }
      }),
    ip: z
      .string({ error: 'ip' satisfies LaravelRule })
      .refine((value) => isIP(value) !== 0, rule('ip'))
      .nullish(),
    timestamp: requiredString().refine(
      (value) => RFC3339.test(value) && Date.parse(value) >= EARLIEST,
      rule('regex'),
    ),
  })
  .superRefine((input, ctx) => {
    const files = filesOf[input.event];
    if (!files) return;
    const given = input.metadata?.files;
    if (given == null) {
      ctx.addIssue({ code: 'custom', path: ['metadata', 'files'], message: 'required' });
      return;
    }
    const result = files.safeParse(given);
    for (const issue of result.error?.issues ?? []) {
      ctx.addIssue({ ...issue, path: ['metadata', 'files', ...issue.path] });
    }
  });

/**
 * `POST /api/remote/activity`: `data` required|array|max:100 of rows, each `user` and `server` uuids, `event` one
 * of the events a node reports, `metadata` an object with the paths its event names (bounded in size and paths),
 * `ip` nullable|ip, `timestamp` RFC 3339.
 */
export const remoteActivityBodySchema = z.object({
  data: requiredArray(row).max(limits.rowsPerRequest, rule('max')),
});

/** Nesting allowed anywhere in the body: `data` (1), a row (2), then the metadata's own levels. */
const BODY_DEPTH = 2 + limits.metadataDepth;

/**
 * Refuses a body nested deeper than any valid one (metadata past its own levels) before the rules walk it, naming
 * the field; the body reader has already refused anything past 64 levels.
 * @throws HttpError 422 naming the field where the nesting went too deep
 */
export function assertShallowBody(body: unknown): void {
  const at = pathPastDepth(body, BODY_DEPTH);
  if (!at) return;
  const field = at.slice(0, 3).join('.');
  throw validationFailed(
    toValidationErrors([
      {
        path: at.slice(0, 3),
        message: `The ${field} may not be nested more than ${limits.metadataDepth} levels deep.`,
      },
    ]),
  );
}
