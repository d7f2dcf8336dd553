import type { Config } from '@aerie/panel/config/load-config';
import { SecretBox } from '@aerie/panel/crypto/secret-box';
import { DaemonClient } from '@aerie/panel/daemon-client/daemon-client';
import type { Db } from '@aerie/panel/db/database';
import { PanelSettings } from '@aerie/panel/features/panel-settings/panel-settings';
import type { Log } from '@aerie/panel/logging/log';
import { Mailer } from '@aerie/panel/mail/mailer';
import { createSharedStore } from '@aerie/panel/shared-store/create-shared-store';
import type { SharedStore } from '@aerie/panel/shared-store/shared-store';

/** What every feature may be given: configuration, storage, time, secrets, mail, the nodes' daemons, the log. */
export interface Infrastructure {
  config: Config;
  db: Db;
  appKey: Buffer;
  clock: () => Date;
  secretBox: SecretBox;
  /** Settings an admin changes at run time (`settings` table), with the environment's values as defaults. */
  settings: PanelSettings;
  /** Mail through the current mail settings. */
  mailer: Mailer;
  /** Calls to the nodes' daemons, with the default time-outs. */
  daemon: DaemonClient;
  /**
   * What several panel processes must see alike (rate limits, sign-in throttles, cross-process events): Redis with
   * REDIS_URL, else this process's memory. Closed with the app.
   */
  shared: SharedStore;
  log: Log;
}

export function createInfrastructure(input: {
  config: Config;
  db: Db;
  appKey: Buffer;
  log: Log;
  clock?: () => Date;
}): Infrastructure {
  const { config, db, appKey, log } = input;
  const secretBox = new SecretBox(appKey);
  const clock = input.clock ?? (() => new Date());
  const shared = createSharedStore(config.redis, log);
  const settings = new PanelSettings({
    changes: shared,
    db,
    clock,
    secretBox,
    defaults: {
      appName: config.appName,
      twoFactorRequired: config.twoFactorRequired,
      mail: config.mail,
      recaptcha: config.recaptcha,
      // The local node's ports: a fresh install lets users add allocations from the ports it already has.
      allocations: {
        enabled: true,
        rangeStart: config.demoPortRange.from,
        rangeEnd: config.demoPortRange.to,
      },
    },
  });
  return {
    config,
    db,
    appKey,
    clock,
    secretBox,
    settings,
    mailer: new Mailer(config, log, () => settings.mail()),
    daemon: new DaemonClient(secretBox),
    shared,
    log,
  };
}
