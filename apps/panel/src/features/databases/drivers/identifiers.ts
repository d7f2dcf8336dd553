/**
 * Names the drivers put into DDL, which takes no bind parameters. Every name is checked against the rules it was
 * made by before it is quoted (a name the rules refuse never reaches a host), and then quoted as the host's own
 * grammar wants (backticks or double quotes, doubled inside): two locks, so neither alone has to be perfect.
 */

/** `s{server}_{name}`: the server's id, an underscore, then what `alpha_dash` (ASCII) allows; 48 at most. */
const DATABASE = /^s[0-9]{1,10}_[A-Za-z0-9_-]{1,46}$/;
/** `u{server}_` and letters and digits (10 generated; up to 32 in all, MySQL's limit). */
const USERNAME = /^u[0-9]{1,10}_[A-Za-z0-9]{1,20}$/;
/** Generated passwords: letters, digits and `! @ = . + ^`; nothing a string literal would have to escape. */
const PASSWORD = /^[A-Za-z0-9!@=.+^]{8,64}$/;
/** The client's `remote` rule, `^[\w\-\/.%:]+$`, bounded by the column. */
const REMOTE = /^[A-Za-z0-9_\-/.%:]{1,191}$/;

/** A name that broke the rules it should have been made by: the panel refuses to send it to a host. */
export class UnsafeIdentifierError extends Error {
  constructor(kind: string, value: string) {
    super(`Refusing to use ${JSON.stringify(value)} as a ${kind} on a database host.`);
    this.name = 'UnsafeIdentifierError';
  }
}

function checked(kind: string, pattern: RegExp, value: string, max = Number.POSITIVE_INFINITY): string {
  if (!pattern.test(value) || value.length > max) throw new UnsafeIdentifierError(kind, value);
  return value;
}

export const checkDatabaseName = (name: string) => checked('database name', DATABASE, name, 48);
export const checkUsername = (name: string) => checked('username', USERNAME, name, 32);
export const checkRemote = (remote: string) => checked('connections_from', REMOTE, remote);

/** A password is checked too before it goes into DDL as a literal (escaped by the driver's own function as well). */
export function checkPassword(password: string): string {
  if (!PASSWORD.test(password)) throw new Error('Refusing to send a password the panel did not generate.');
  return password;
}

/** A MySQL/MariaDB identifier: in backticks, a backtick inside doubled. */
export const quoteMysqlIdentifier = (name: string) => `\`${name.replaceAll('`', '``')}\``;

/**
 * A database name as the `ON db.*` of a MySQL GRANT reads it: `_` and `%` there are wildcards (`s1_a` would also
 * match `s1xa`), so they, and the backslash that escapes them, are escaped before quoting.
 */
export const quoteMysqlGrantDatabase = (name: string) =>
  quoteMysqlIdentifier(name.replace(/[\\_%]/g, (character) => `\\${character}`));

/** `user`@`host`, each part quoted. */
export const mysqlAccount = (username: string, remote: string) =>
  `${quoteMysqlIdentifier(username)}@${quoteMysqlIdentifier(remote)}`;

/** A PostgreSQL identifier: in double quotes, a double quote inside doubled (pg's escapeIdentifier). */
export const quotePostgresIdentifier = (name: string) => `"${name.replaceAll('"', '""')}"`;
