import type { Config } from '@aerie/panel/config/load-config';
import { SecretBox } from '@aerie/panel/crypto/secret-box';
import { DaemonClient } from '@aerie/panel/daemon-client/daemon-client';
import type { Db } from '@aerie/panel/db/database';
import type { Log } from '@aerie/panel/logging/log';
import { Mailer } from '@aerie/panel/mail/mailer';

/** What every feature may be given: configuration, storage, time, secrets, mail, the nodes' daemons, the log. */
export interface Infrastructure {
  config: Config;
  db: Db;
  appKey: Buffer;
  clock: () => Date;
  secretBox: SecretBox;
  mailer: Mailer;
  /** Calls to the nodes' daemons, with the default time-outs. */
  daemon: DaemonClient;
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
  return {
    config,
    db,
    appKey,
    clock: input.clock ?? (() => new Date()),
    secretBox,
    mailer: new Mailer(config, log),
    daemon: new DaemonClient(secretBox),
    log,
  };
}
