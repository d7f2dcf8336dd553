import Busboy from '@fastify/busboy';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import qs from 'qs';
import { badRequest } from './errors';

/**
 * PHP's input limits, which Pterodactyl's clients live within: at most 1000 fields (`max_input_vars`), brackets
 * nested a few levels (`a[b][c]`), names and values bounded. Beyond them the request is refused whole, never cut.
 */
export const FORM_LIMITS = { fields: 1000, depth: 5, nameBytes: 256 } as const;

const QS_OPTIONS = {
  depth: FORM_LIMITS.depth,
  strictDepth: true,
  parameterLimit: FORM_LIMITS.fields,
  arrayLimit: FORM_LIMITS.fields,
  throwOnLimitExceeded: true,
  allowPrototypes: false,
} as const;

const tooMany = () =>
  badRequest(
    `The form exceeds the panel's limits: ${FORM_LIMITS.fields} fields, brackets nested ${FORM_LIMITS.depth} deep, names of ${FORM_LIMITS.nameBytes} bytes.`,
  );

/**
 * Form bodies (`application/x-www-form-urlencoded` and `multipart/form-data`), as PHP scripts, `curl -d` and
 * Laravel-style clients send them, become the same object a JSON body would: `limits[memory]=512` is
 * `{limits: {memory: "512"}}`, `files[]=a` a list. Values stay strings, as PHP's are, and the routes' schemas take
 * them as Laravel's rules do ("1" for a boolean, "512" for an integer), so one validation serves both. Both are
 * read whole within the app's body limit (413 above), and a file part in a multipart body is skipped: no API route
 * takes one (uploads go to the daemon). Cross-site forms cannot use this: a cookie request still needs its CSRF
 * token header, which a form cannot set.
 */
export function registerFormBodyParsers(app: FastifyInstance): void {
  app.addContentTypeParser(
    /^application\/x-www-form-urlencoded(\s*;.*)?$/i,
    { parseAs: 'string' },
    (_request, body, done) => {
      try {
        done(null, parseFormPairs(String(body)));
      } catch (error) {
        done(error as Error, undefined);
      }
    },
  );
  app.addContentTypeParser(
    /^multipart\/form-data(\s*;.*)?$/i,
    { parseAs: 'buffer' },
    (request, body, done) => {
      readMultipartFields(request, body as Buffer).then(
        (pairs) => done(null, parseFormPairs(pairs)),
        (error: Error) => done(error, undefined),
      );
    },
  );
}

/** A query-string-shaped body (or its name/value pairs) as nested objects and lists, PHP's way. */
function parseFormPairs(input: string | [string, string][]): Record<string, unknown> {
  const text = typeof input === 'string' ? input : new URLSearchParams(input).toString();
  if (text.trim() === '') return {};
  try {
    return qs.parse(text, QS_OPTIONS);
  } catch {
    // qs throws a RangeError past the field or depth limit.
    throw tooMany();
  }
}

/** The text fields of a multipart body already read whole; file parts are drained and dropped. */
function readMultipartFields(request: FastifyRequest, body: Buffer): Promise<[string, string][]> {
  return new Promise((resolve, reject) => {
    const pairs: [string, string][] = [];
    let busboy: InstanceType<typeof Busboy>;
    try {
      busboy = new Busboy({
        headers: { 'content-type': request.headers['content-type'] ?? '' },
        limits: { fields: FORM_LIMITS.fields, fieldNameSize: FORM_LIMITS.nameBytes, fieldSize: body.length },
      });
    } catch {
      reject(badRequest('The multipart body has no boundary.'));
      return;
    }
    let overLimit = false;
    busboy.on('field', (name, value, nameTruncated) => {
      if (nameTruncated) overLimit = true;
      else pairs.push([name, value]);
    });
    busboy.on('file', (_name, file) => file.resume());
    busboy.on('fieldsLimit', () => {
      overLimit = true;
    });
    busboy.on('error', () => reject(badRequest('The multipart body is malformed.')));
    busboy.on('finish', () => (overLimit ? reject(tooMany()) : resolve(pairs)));
    busboy.end(body);
  });
}
