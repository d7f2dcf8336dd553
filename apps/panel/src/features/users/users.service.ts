import { randomInt } from 'node:crypto';
import type { Db } from '@aerie/panel/db/database';
import { isUniqueViolation } from '@aerie/panel/db/dialect';
import type { Tx } from '@aerie/panel/db/transaction';
import type { Audit } from '@aerie/panel/features/audit/audit-log';
import { hashPassword } from '@aerie/panel/features/auth/password-hash';
import { displayError, notFound, validationFailed } from '@aerie/panel/http/errors';
import { type UserBody, userAttributeNames, userMessages } from '@aerie/shared/users/users-bodies';
import { toValidationErrors } from '@aerie/shared/validation/validation-errors';
import type { User } from './user';
import {
  deleteUserAndResets,
  findUserById,
  insertApplicationUser,
  lockUser,
  normaliseLogin,
  ownsAnyServer,
  takenUserFields,
  updateApplicationUser,
} from './users.repository';

const ALPHANUMERIC = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

/** Upstream's `str_random(30)`: the password of an account created without one, never told to anyone. */
const randomPassword = () => Array.from({ length: 30 }, () => ALPHANUMERIC[randomInt(62)]).join('');

/** The `unique` rules in the order upstream reports them. */
const UNIQUE_FIELDS = ['email', 'external_id', 'username'] as const;

/** A foreign key still points at the row being deleted (a server created meanwhile), whatever the driver. */
function isForeignKeyViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return (
    code === '23503' ||
    code === 'SQLITE_CONSTRAINT_FOREIGNKEY' ||
    code === 'ER_ROW_IS_REFERENCED_2' ||
    code === 'ER_ROW_IS_REFERENCED'
  );
}

/** Users of the Application API (reference §3.1): create, full update, delete (refused while owning servers). */
export class UsersService {
  constructor(private readonly deps: { db: Db; clock: () => Date }) {}

  /**
   * Creates the user: username and email lower-cased, the password hashed, or a random one when none is given
   * (the caller then mails a link to set it).
   * @throws HttpError 422 when the email, username or external id is taken
   */
  async create(input: UserBody, audit: Audit<User>): Promise<User> {
    await this.assertUnique(input);
    const passwordHash = await hashPassword(input.password ?? randomPassword());
    const now = this.deps.clock();
    return this.write(input, undefined, async (tx) => {
      const id = await insertApplicationUser(
        tx,
        {
          ...rowValues(input),
          language: input.language ?? 'en',
          rootAdmin: input.root_admin ?? false,
          passwordHash,
        },
        now,
      );
      const user = (await findUserById(tx, id)) as User;
      await audit(tx, { subjectId: id, after: user, secretsSet: input.password == null ? [] : ['password'] });
      return user;
    });
  }

  /**
   * Writes every field sent; `external_id`, `language` and `root_admin` only when present, the password only
   * when not empty.
   * @throws HttpError 404 unknown, 422 when the email, username or external id belongs to another user
   */
  async update(id: number, input: UserBody, audit: Audit<User>): Promise<User> {
    await this.assertUnique(input, id);
    const passwordHash = input.password == null ? undefined : await hashPassword(input.password);
    return this.write(input, id, async (tx) => {
      const before = await findUserById(tx, id);
      if (!before) throw notFound();
      await updateApplicationUser(
        tx,
        id,
        {
          ...rowValues(input),
          ...(input.language === undefined ? {} : { language: input.language }),
          ...(input.root_admin === undefined ? {} : { rootAdmin: input.root_admin }),
          ...(passwordHash === undefined ? {} : { passwordHash }),
        },
        this.deps.clock(),
      );
      const after = (await findUserById(tx, id)) as User;
      await audit(tx, { subjectId: id, before, after, secretsSet: passwordHash ? ['password'] : [] });
      return after;
    });
  }

  /**
   * Deletes the user unless they own a server, in one transaction: the user row is locked (PostgreSQL/MySQL;
   * SQLite has one writer), and `servers.owner_id`'s foreign key makes a server created meanwhile fail one side
   * or the other, never leave a server without its owner. Sessions, keys and subuser rows go by cascade.
   * @returns the deleted user
   * @throws HttpError 404 unknown, 400 DisplayException while the user owns servers
   */
  async delete(id: number, audit: Audit<User>): Promise<User> {
    const { db } = this.deps;
    try {
      return await db.transaction().execute(async (tx) => {
        const user = await lockUser(tx, id);
        if (!user) throw notFound();
        if (await ownsAnyServer(tx, id)) throw displayError(userMessages.hasServers);
        await deleteUserAndResets(tx, user);
        await audit(tx, { subjectId: id, before: user });
        return user;
      });
    } catch (error) {
      if (isForeignKeyViolation(error)) throw displayError(userMessages.hasServers);
      throw error;
    }
  }

  /** @throws HttpError 422 with one `unique` entry per taken field */
  private async assertUnique(input: UserBody, exceptId?: number): Promise<void> {
    const taken = await takenUserFields(
      this.deps.db,
      { email: input.email, username: input.username, externalId: input.external_id ?? null },
      exceptId,
    );
    if (taken.size > 0) throw uniqueFailed(taken);
  }

  /** Runs a write in one transaction; a unique violation (a value taken after the check) becomes the 422. */
  private async write<T>(
    input: UserBody,
    exceptId: number | undefined,
    work: (tx: Tx) => Promise<T>,
  ): Promise<T> {
    try {
      return await this.deps.db.transaction().execute(work);
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      const taken = await takenUserFields(
        this.deps.db,
        { email: input.email, username: input.username, externalId: input.external_id ?? null },
        exceptId,
      );
      throw uniqueFailed(taken.size > 0 ? taken : new Set(['email'] as const));
    }
  }
}

/** The columns every create and update writes; `external_id` only when sent (undefined leaves it). */
function rowValues(input: UserBody) {
  return {
    email: normaliseLogin(input.email),
    username: normaliseLogin(input.username),
    nameFirst: input.first_name,
    nameLast: input.last_name,
    ...(input.external_id === undefined ? {} : { externalId: input.external_id }),
  };
}

function uniqueFailed(taken: ReadonlySet<string>) {
  const issues = UNIQUE_FIELDS.filter((field) => taken.has(field)).map((field) => ({
    path: [field],
    message: 'unique',
  }));
  return validationFailed(toValidationErrors(issues, UNIQUE_FIELDS, userAttributeNames));
}
