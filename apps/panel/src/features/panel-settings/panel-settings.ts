import type { SecretBox } from '@aerie/panel/crypto/secret-box';
import type { Db } from '@aerie/panel/db/database';
import type { Tx } from '@aerie/panel/db/transaction';
import type { TwoFactorRequirement } from '@aerie/shared/account/account-wire';
import { isLanguage, type Language } from '@aerie/shared/languages/languages';
import { listSettings, replaceSetting } from './panel-settings.repository';

/** Setting keys, with what they mean. */
export const SETTING_2FA_REQUIRED = '2fa_required';
/** The product name (title, navigation bar, mails). */
export const SETTING_APP_NAME = 'app_name';
/** Sealed: the SMTP URL (it may carry a password); stored empty for the file outbox. */
export const SETTING_MAIL_URL = 'mail_url';
export const SETTING_MAIL_FROM = 'mail_from';
/** '1' or '0'. */
export const SETTING_RECAPTCHA_ENABLED = 'recaptcha_enabled';
export const SETTING_RECAPTCHA_SITE_KEY = 'recaptcha_site_key';
/** Sealed. */
export const SETTING_RECAPTCHA_SECRET_KEY = 'recaptcha_secret_key';
export const SETTING_DEFAULT_LANGUAGE = 'default_language';
/** '1' or '0': whether users may add allocations to their servers (Network page). */
export const SETTING_ALLOCATIONS_ENABLED = 'allocations_enabled';
/** The ports a user-made allocation is taken from, inclusive. */
export const SETTING_ALLOCATIONS_RANGE_START = 'allocations_range_start';
export const SETTING_ALLOCATIONS_RANGE_END = 'allocations_range_end';
/** '1' or '0': everyone but root admins signs in through an identity provider (features/oauth). */
export const SETTING_SSO_REQUIRED = 'sso_required';

/** Settings whose stored value is sealed with the secret box. */
const SEALED = new Set([SETTING_MAIL_URL, SETTING_RECAPTCHA_SECRET_KEY]);

/** The whole table is served from memory for this long, so a hot path (every /api/client request) costs no query. */
const CACHE_MS = 5_000;

/** What applies when a setting is not stored: the environment's values. */
export interface PanelSettingsDefaults {
  appName: string;
  twoFactorRequired: TwoFactorRequirement;
  mail: { url: string | undefined; from: string };
  recaptcha: { enabled: boolean; siteKey: string; secretKey: string };
  allocations: ClientAllocationSettings;
}

/** Whether users may add allocations to their servers themselves, and from which ports. */
export interface ClientAllocationSettings {
  enabled: boolean;
  rangeStart: number;
  rangeEnd: number;
}

export interface MailSettings {
  /** undefined: the file outbox in DATA_DIR/mail. */
  url: string | undefined;
  from: string;
}

export interface RecaptchaSettings {
  enabled: boolean;
  siteKey: string;
  secretKey: string;
}

/**
 * Panel-wide settings stored in the `settings` table, each overriding a default from the environment. The table
 * is read whole and cached for a few seconds; a write through this class is seen at once here, and by other
 * panel replicas as soon as they hear of it (`changes`: Redis with REDIS_URL), else within CACHE_MS.
 */
/** The event a settings write publishes to every panel process. */
const SETTINGS_CHANGED = 'settings-changed';

export class PanelSettings {
  #snapshot: { values: Map<string, string>; until: number } | null = null;

  constructor(
    private readonly deps: {
      db: Db;
      clock: () => Date;
      secretBox: SecretBox;
      defaults: PanelSettingsDefaults;
      /** Tells every panel process of a write, so each drops its cached copy (shared-store events). */
      changes?: {
        publish(channel: string, message: string): Promise<void>;
        subscribe(channel: string, listener: (message: string) => void): void;
      };
      /**
       * Set on the settings `transaction` hands its work: `db` is that transaction, and writes join it and note
       * their keys here (the outer settings tell the other processes once it commits).
       */
      written?: Set<string>;
    },
  ) {
    deps.changes?.subscribe(SETTINGS_CHANGED, () => {
      this.#snapshot = null;
    });
  }

  /** Who must have 2FA enabled to use the client API: 0 nobody, 1 root admins, 2 everyone. */
  async twoFactorRequired(): Promise<TwoFactorRequirement> {
    const stored = await this.get(SETTING_2FA_REQUIRED);
    return stored === '0' || stored === '1' || stored === '2'
      ? (Number(stored) as TwoFactorRequirement)
      : this.deps.defaults.twoFactorRequired;
  }

  async appName(): Promise<string> {
    return (await this.get(SETTING_APP_NAME)) || this.deps.defaults.appName;
  }

  async mail(): Promise<MailSettings> {
    const url = await this.get(SETTING_MAIL_URL);
    return {
      url: url === null ? this.deps.defaults.mail.url : url || undefined,
      from: (await this.get(SETTING_MAIL_FROM)) || this.deps.defaults.mail.from,
    };
  }

  async recaptcha(): Promise<RecaptchaSettings> {
    const defaults = this.deps.defaults.recaptcha;
    const enabled = await this.get(SETTING_RECAPTCHA_ENABLED);
    const siteKey = await this.get(SETTING_RECAPTCHA_SITE_KEY);
    const secretKey = await this.get(SETTING_RECAPTCHA_SECRET_KEY);
    return {
      enabled: enabled === null ? defaults.enabled : enabled === '1',
      siteKey: siteKey ?? defaults.siteKey,
      secretKey: secretKey ?? defaults.secretKey,
    };
  }

  async clientAllocations(): Promise<ClientAllocationSettings> {
    const defaults = this.deps.defaults.allocations;
    const enabled = await this.get(SETTING_ALLOCATIONS_ENABLED);
    const port = (stored: string | null, fallback: number) =>
      stored !== null && /^\d{1,5}$/.test(stored) ? Number(stored) : fallback;
    return {
      enabled: enabled === null ? defaults.enabled : enabled === '1',
      rangeStart: port(await this.get(SETTING_ALLOCATIONS_RANGE_START), defaults.rangeStart),
      rangeEnd: port(await this.get(SETTING_ALLOCATIONS_RANGE_END), defaults.rangeEnd),
    };
  }

  /** Whether password sign-ins are refused to everyone but root admins (single sign-on only). Off by default. */
  async ssoRequired(): Promise<boolean> {
    return (await this.get(SETTING_SSO_REQUIRED)) === '1';
  }

  async defaultLanguage(): Promise<Language> {
    const stored = await this.get(SETTING_DEFAULT_LANGUAGE);
    return isLanguage(stored) ? stored : 'en';
  }

  /** The stored value of a setting (opened when sealed), or null when it is unset or cannot be opened. */
  async get(key: string): Promise<string | null> {
    const raw = (await this.#values()).get(key);
    if (raw === undefined) return null;
    if (!SEALED.has(key)) return raw;
    try {
      return this.deps.secretBox.open(raw);
    } catch {
      // Sealed under another APP_KEY: as good as unset.
      return null;
    }
  }

  /** Stores settings (insert or update; sealed ones sealed), `null` removing one so the default applies again. */
  async setMany(values: Readonly<Record<string, string | null>>): Promise<void> {
    const entries = Object.entries(values);
    if (entries.length === 0) return;
    const { written } = this.deps;
    if (written) {
      await this.#write(this.deps.db, entries);
      this.#snapshot = null;
      for (const [key] of entries) written.add(key);
      return;
    }
    await this.deps.db.transaction().execute((tx) => this.#write(tx, entries));
    this.#snapshot = null;
    await this.deps.changes?.publish(SETTINGS_CHANGED, entries.map(([key]) => key).join(','));
  }

  /**
   * Runs `work` in one transaction with these settings as that transaction reads and writes them (uncached), so
   * a change can read what it replaces and record itself (the audit log) with its writes. Once committed, as
   * setMany: the cache is dropped and the other processes told.
   */
  async transaction<T>(work: (settings: PanelSettings, tx: Tx) => Promise<T>): Promise<T> {
    const written = new Set<string>();
    // No `changes`: the transaction's settings must not subscribe (one listener per transaction would pile up).
    const { changes, ...deps } = this.deps;
    const result = await deps.db
      .transaction()
      .execute((tx) => work(new PanelSettings({ ...deps, db: tx, written }), tx));
    if (written.size > 0) {
      this.#snapshot = null;
      await changes?.publish(SETTINGS_CHANGED, [...written].join(','));
    }
    return result;
  }

  async #write(db: Db | Tx, entries: [string, string | null][]): Promise<void> {
    for (const [key, value] of entries) {
      const stored = value === null || !SEALED.has(key) ? value : this.deps.secretBox.seal(value);
      await replaceSetting(db, key, stored);
    }
  }

  /** Stores one setting, or removes it with `null` so the default applies again. */
  set(key: string, value: string | null): Promise<void> {
    return this.setMany({ [key]: value });
  }

  async #values(): Promise<Map<string, string>> {
    const now = this.deps.clock().getTime();
    if (this.#snapshot && this.#snapshot.until > now) return this.#snapshot.values;
    const rows = await listSettings(this.deps.db);
    const values = new Map(rows.map((row) => [row.key, row.value]));
    this.#snapshot = { values, until: now + CACHE_MS };
    return values;
  }
}
