import { randomAlphanumeric, safeEqual, sha256 } from '@aerie/panel/crypto/tokens';
import type { Db } from '@aerie/panel/db/database';
import { isDiskFull } from '@aerie/panel/db/disk-full';
import { type ActivityLog, accountActivity } from '@aerie/panel/features/activity/activity-log';
import type { Audit } from '@aerie/panel/features/audit/audit-log';
import type { User } from '@aerie/panel/features/users/user';
import { lockUserRow } from '@aerie/panel/features/users/user-writes';
import { displayError, forbidden, notFound, unauthenticated } from '@aerie/panel/http/errors';
import type { RequestOrigin } from '@aerie/panel/http/request-origin';
import type { Log } from '@aerie/panel/logging/log';
import {
  APPLICATION_KEY_PREFIX,
  apiKeyErrorMessages,
  apiKeyLimits,
  CLIENT_KEY_PREFIX,
} from '@aerie/shared/api-keys/api-keys-wire';
import { applicationKeyLimits, type ResourceAccess } from '@aerie/shared/api-keys/application-keys-wire';
import { ACCOUNT_KEY, APPLICATION_KEY, type ApiKey } from './api-key';
import { ipAllowed } from './api-key-ips';
import { countKeys, deleteKey, findKeyWithUser, insertKey, listKeys, touchKey } from './api-keys.repository';

/** `last_used_at` is written at most this often per key, so API traffic does not cost a write per request. */
const LAST_USED_PRECISION_MS = 60_000;

const BEARER_LENGTH = apiKeyLimits.identifierLength + apiKeyLimits.secretLength;

/**
 * Account API keys: `Authorization: Bearer <identifier><secret>` for the client API. The secret has 190 bits of
 * randomness, so a plain SHA-256 of it is what is stored (a slow hash would add nothing but latency), and it is
 * compared in constant time. Keys are looked up on every request, so a deleted key stops working at once.
 */
export class ApiKeyService {
  constructor(
    private readonly deps: {
      db: Db;
      clock: () => Date;
      /** The panel's log of what users did; the CLI, which makes application keys, has none. */
      activity?: ActivityLog;
      log?: Log;
    },
  ) {}

  /** The user's account keys, oldest first. */
  list(user: User): Promise<ApiKey[]> {
    return listKeys(this.deps.db, user.id, ACCOUNT_KEY);
  }

  /**
   * Creates an account key. The count check and the insert run under a lock on the user's row, so concurrent
   * requests cannot pass the limit together.
   * @returns the key and its secret: the only time the secret exists outside the client
   * @param origin the request that asks for it: the key is then logged on the account (`user:api-key.create`)
   * @throws HttpError 400 DisplayException when the user already has 25 keys
   */
  async create(user: User, input: { description: string; allowedIps: string[] }, origin?: RequestOrigin) {
    const now = this.deps.clock();
    const secret = randomAlphanumeric(apiKeyLimits.secretLength);
    const identifier =
      CLIENT_KEY_PREFIX + randomAlphanumeric(apiKeyLimits.identifierLength - CLIENT_KEY_PREFIX.length);
    const key = await this.deps.db.transaction().execute(async (tx) => {
      await lockUserRow(tx, user.id);
      if ((await countKeys(tx, user.id, ACCOUNT_KEY)) >= apiKeyLimits.perUser) {
        throw displayError(apiKeyErrorMessages.apiKeyLimit);
      }
      const created = await insertKey(
        tx,
        {
          userId: user.id,
          keyType: ACCOUNT_KEY,
          identifier,
          tokenHash: sha256(secret),
          description: input.description,
          allowedIps: input.allowedIps,
        },
        now,
      );
      if (origin && this.deps.activity) {
        await this.deps.activity.record(tx, {
          event: 'user:api-key.create',
          ...accountActivity(user, origin),
          properties: { identifier },
        });
      }
      return created;
    });
    return { key, secret };
  }

  /**
   * @param origin the request that asks for it: the deletion is then logged on the account
   * @throws HttpError 404 unless the user owns an account key with this identifier
   */
  async delete(user: User, identifier: string, origin?: RequestOrigin): Promise<void> {
    await this.deps.db.transaction().execute(async (tx) => {
      if (!(await deleteKey(tx, user.id, ACCOUNT_KEY, identifier))) throw notFound();
      if (origin && this.deps.activity) {
        await this.deps.activity.record(tx, {
          event: 'user:api-key.delete',
          ...accountActivity(user, origin),
          properties: { identifier },
        });
      }
    });
  }

  /**
   * Resolves a bearer token (identifier followed by secret) to its key and user.
   * @throws HttpError 401 "Unauthenticated." for a malformed token, an unknown identifier or a wrong secret
   */
  async authenticate(token: string): Promise<{ key: ApiKey; user: User }> {
    if (token.length !== BEARER_LENGTH) throw unauthenticated();
    const found = await findKeyWithUser(this.deps.db, token.slice(0, apiKeyLimits.identifierLength));
    if (!found || !safeEqual(sha256(token.slice(apiKeyLimits.identifierLength)), found.key.tokenHash)) {
      throw unauthenticated();
    }
    return found;
  }

  /**
   * The checks after authentication on /api/client (reference §1.1 order): the key's IP allow-list, then that it
   * is an account key, not an application key. Then records the use (at most once a minute).
   * @throws HttpError 403 AccessDeniedHttpException (a refused address is logged on the account: `auth:ip-blocked`)
   */
  async assertUsableOnClientApi(key: ApiKey, origin: RequestOrigin): Promise<void> {
    await this.assertAllowedIp(key, origin);
    if (key.keyType !== ACCOUNT_KEY) {
      throw forbidden(apiKeyErrorMessages.applicationKeyOnClientApi);
    }
    await this.recordUse(key);
  }

  /**
   * The key checks on /api/application: its IP allow-list (either kind of key: a root admin's account key passes
   * every resource there, reference §1.3). Then records the use.
   * @throws HttpError 403 AccessDeniedHttpException
   */
  async assertUsableOnApplicationApi(key: ApiKey, origin: RequestOrigin): Promise<void> {
    await this.assertAllowedIp(key, origin);
    await this.recordUse(key);
  }

  /** @throws HttpError 403 when the key's allow-list leaves the address out, after logging it on the account */
  private async assertAllowedIp(key: ApiKey, origin: RequestOrigin): Promise<void> {
    if (ipAllowed(origin.ip, key.allowedIps)) return;
    const user = { id: key.userId };
    await this.deps.activity?.record(this.deps.db, {
      event: 'auth:ip-blocked',
      ...accountActivity(user, origin),
      properties: { identifier: key.identifier },
    });
    throw forbidden(apiKeyErrorMessages.ipNotAllowed(origin.ip));
  }

  /** The admin's application keys, oldest first. */
  listApplicationKeys(user: User): Promise<ApiKey[]> {
    return listKeys(this.deps.db, user.id, APPLICATION_KEY);
  }

  /**
   * Creates an application key (`ptla_…`) owned by `user`, which acts as that user: it stops working the moment
   * the user is no longer a root admin. Recorded in the audit log by its identifier, never its secret.
   * @throws HttpError 400 DisplayException past the per-admin limit
   */
  async createApplicationKey(
    user: User,
    input: { memo: string; allowedIps: string[]; access: Partial<ResourceAccess> },
    audit: Audit<ApiKey>,
  ) {
    const now = this.deps.clock();
    const secret = randomAlphanumeric(apiKeyLimits.secretLength);
    const identifier =
      APPLICATION_KEY_PREFIX +
      randomAlphanumeric(apiKeyLimits.identifierLength - APPLICATION_KEY_PREFIX.length);
    const key = await this.deps.db.transaction().execute(async (tx) => {
      await lockUserRow(tx, user.id);
      if ((await countKeys(tx, user.id, APPLICATION_KEY)) >= applicationKeyLimits.perUser) {
        throw displayError(apiKeyErrorMessages.applicationKeyLimit);
      }
      const created = await insertKey(
        tx,
        {
          userId: user.id,
          keyType: APPLICATION_KEY,
          identifier,
          tokenHash: sha256(secret),
          description: input.memo,
          allowedIps: input.allowedIps,
          access: input.access,
        },
        now,
      );
      await audit(tx, { subjectId: identifier, after: created });
      return created;
    });
    return { key, secret };
  }

  /** @throws HttpError 404 unless the user owns an application key with this identifier */
  async deleteApplicationKey(user: User, identifier: string, audit: Audit<ApiKey>): Promise<void> {
    await this.deps.db.transaction().execute(async (tx) => {
      const found = await findKeyWithUser(tx, identifier);
      const before =
        found?.key.userId === user.id && found.key.keyType === APPLICATION_KEY ? found.key : null;
      if (!before || !(await deleteKey(tx, user.id, APPLICATION_KEY, identifier))) throw notFound();
      await audit(tx, { subjectId: identifier, before });
    });
  }

  /** Notes the key's use, at most once a minute. */
  private async recordUse(key: ApiKey): Promise<void> {
    const now = this.deps.clock();
    if (!key.lastUsedAt || now.getTime() - key.lastUsedAt.getTime() >= LAST_USED_PRECISION_MS) {
      try {
        await touchKey(this.deps.db, key.id, now);
      } catch (error) {
        // A record the request can do without: on a full disk the key still reads, the use is noted later.
        if (!isDiskFull(error)) throw error;
        this.deps.log?.warn(
          { err: error },
          `Could not record the use of API key ${key.identifier}: the disk is full`,
        );
      }
    }
  }
}
