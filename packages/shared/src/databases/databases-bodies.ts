import { z } from 'zod';
import { requiredInteger } from '../validation/laravel-fields';
import type { LaravelRule } from '../validation/laravel-messages';
import { requiredString, rule } from '../validation/rules';

/** Lengths and patterns of per-server databases (reference client §7.2 "Databases", application §0, §3.6, §5). */
export const serverDatabaseLimits = {
  /** The name the user types (client: 3–48; Application API: 1–48). */
  nameMin: 3,
  nameMax: 48,
  applicationNameMin: 1,
  /** The stored name `s{server}_{name}` is cut to this many characters, as upstream cuts it. */
  storedNameMax: 48,
  /** `u{server}_` and this many random letters and digits. */
  usernameRandomLength: 10,
  /** 24 random letters and digits, 2 to 6 of them swapped for one of `! @ = . + ^`. */
  passwordLength: 24,
  /** The column `remote` is stored in; upstream sets no bound (a longer value is refused by the host anyway). */
  remoteMax: 191,
} as const;

/**
 * Laravel's `alpha_dash`, in ASCII: letters, digits, dashes and underscores. Upstream's rule also takes non-ASCII
 * letters; Aerie keeps database names to what every MySQL, MariaDB and PostgreSQL host stores byte for byte.
 */
export const DATABASE_NAME = /^[A-Za-z0-9_-]+$/;

/** The client's `remote`: `^[\w\-\/.%:]+$` (PHP's `\w` without /u is ASCII), e.g. `%`, `10.0.%`, `::1`. */
export const CLIENT_REMOTE = /^[A-Za-z0-9_\-/.%:]+$/;

/** The Application API's `remote`: IPv4 digits, dots and `%`, 1 to 15 of them. */
export const APPLICATION_REMOTE = /^[0-9%.]{1,15}$/;

/** A JSON number is taken as its text, as PHP's `alpha_dash` and `min`/`max` read it. */
const asText = (value: unknown) =>
  typeof value === 'number' && Number.isFinite(value) ? String(value) : value;

const databaseName = (min: number) =>
  z.preprocess(
    asText,
    requiredString()
      .regex(DATABASE_NAME, rule('alpha_dash'))
      .min(min, rule('min'))
      .max(serverDatabaseLimits.nameMax, rule('max')),
  );

/**
 * POST /api/client/servers/{server}/databases: `database` required|alpha_dash|min:3|max:48 (unique per server once
 * prefixed: checked by the panel after these rules), `remote` required|string|regex:/^[\w\-\/.%:]+$/.
 */
export const createServerDatabaseBodySchema = z.object({
  database: databaseName(serverDatabaseLimits.nameMin),
  remote: requiredString()
    .regex(CLIENT_REMOTE, rule('regex'))
    .max(serverDatabaseLimits.remoteMax, rule('max')),
});

export type CreateServerDatabaseBody = z.output<typeof createServerDatabaseBodySchema>;

/**
 * POST /api/application/servers/{id}/databases: `database` required|alpha_dash|min:1|max:48, `remote`
 * required|string|regex:/^[0-9%.]{1,15}$/, `host` required|integer|exists:database_hosts,id (checked by the panel).
 */
export const applicationServerDatabaseBodySchema = z.object({
  database: databaseName(serverDatabaseLimits.applicationNameMin),
  remote: requiredString().regex(APPLICATION_REMOTE, rule('regex' satisfies LaravelRule)),
  host: requiredInteger(),
});

export type ApplicationServerDatabaseBody = z.output<typeof applicationServerDatabaseBodySchema>;

/** The Application API's attribute names for this body (upstream's `attributes()`). */
export const applicationServerDatabaseAttributes = {
  host: 'Database Host Server ID',
  remote: 'Remote Connection String',
  database: 'Database Name',
} as const;

/** `s{serverId}_{name}` cut to 48 characters: the name the database has on its host. */
export const storedDatabaseName = (serverId: number, name: string) =>
  `s${serverId}_${name}`.slice(0, serverDatabaseLimits.storedNameMax);

/** Error details of the database routes, word for word from the reference. */
export const serverDatabaseMessages = {
  /** 400 TooManyDatabasesException (a limit of 0 refuses every database; null is unlimited). */
  tooMany: 'Operation aborted: creating a new database would put this server over the defined limit.',
  /** 400 NoSuitableDatabaseHostException. */
  noSuitableHost: 'No database host was found that meets the requirements for this server.',
  /** 400 DuplicateDatabaseNameException (the Application API, or two creates of one name at once). */
  duplicate: 'A database with that name already exists for this server.',
  /** 422 on `database`, rule `unique` (the client API's override of Laravel's message). */
  nameTaken: 'The database name you have selected is already in use by this server.',
  /** The client's 502 when a host failed; the panel logs the host's own error. */
  hostFailed:
    'The database host could not complete this request, and nothing was changed. Please try again later.',
  /** The Application API's 502, with the host's own error for the administrator. */
  hostFailedWith: (message: string) =>
    `There was an error while trying to connect to the host or while executing a query: "${message}"`,
} as const;
