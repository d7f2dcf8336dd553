import type { Db } from '@aerie/panel/db/database';
import type { TwoFactorRequirement } from '@aerie/shared/account/account-wire';

/** Setting keys, with what they mean. */
export const SETTING_2FA_REQUIRED = '2fa_required';

/** Each read is served from memory for this long, so a hot path (every /api/client request) costs no query. */
const CACHE_MS = 5_000;

/**
 * Panel-wide settings stored in the `settings` table, each overriding a default from the environment. Reads are
 * cached for a few seconds; a write through this class is seen at once here, and by other panel replicas within
 * CACHE_MS.
 */
export class PanelSettings {
  readonly #cache = new Map<string, { value: string | null; until: number }>();

  constructor(
    private readonly deps: {
      db: Db;
      clock: () => Date;
      defaults: { twoFactorRequired: TwoFactorRequirement };
    },
  ) {}

  /** Who must have 2FA enabled to use the client API: 0 nobody, 1 root admins, 2 everyone. */
  async twoFactorRequired(): Promise<TwoFactorRequirement> {
    const stored = await this.get(SETTING_2FA_REQUIRED);
    return stored === '0' || stored === '1' || stored === '2'
      ? (Number(stored) as TwoFactorRequirement)
      : this.deps.defaults.twoFactorRequired;
  }

  /** The stored value of a setting, or null when it is unset. */
  async get(key: string): Promise<string | null> {
    const now = this.deps.clock().getTime();
    const cached = this.#cache.get(key);
    if (cached && cached.until > now) return cached.value;
    const row = await this.deps.db
      .selectFrom('settings')
      .select('value')
      .where('key', '=', key)
      .executeTakeFirst();
    const value = row?.value ?? null;
    this.#cache.set(key, { value, until: now + CACHE_MS });
    return value;
  }

  /** Stores a setting (insert or update), or removes it with `null` so the default applies again. */
  async set(key: string, value: string | null): Promise<void> {
    await this.deps.db.transaction().execute(async (tx) => {
      await tx.deleteFrom('settings').where('key', '=', key).execute();
      if (value !== null) await tx.insertInto('settings').values({ key, value }).execute();
    });
    this.#cache.delete(key);
  }
}
