import type { Infrastructure } from '@aerie/panel/infrastructure';
import { SftpAuthService } from './sftp-auth.service';

/** SFTP: the decision on each login a node's daemon asks about, with its failed-login throttle. */
export function createSftpFeature(
  infrastructure: Infrastructure,
  sshKeys: { sshKeys: { owns(userId: number, fingerprint: string): Promise<boolean> } },
) {
  return {
    sftpAuth: new SftpAuthService({
      db: infrastructure.db,
      sshKeys: sshKeys.sshKeys,
      store: infrastructure.shared,
    }),
  };
}
