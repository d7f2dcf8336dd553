import type { SignInThrottle } from '@aerie/panel/features/auth/sign-in-throttle';
import type { Infrastructure } from '@aerie/panel/infrastructure';
import { SftpAuthService } from './sftp-auth.service';

/** SFTP: the decision on each login a node's daemon asks about, bounded by the web sign-in's throttle. */
export function createSftpFeature(
  infrastructure: Infrastructure,
  sshKeys: { sshKeys: { owns(userId: number, fingerprint: string): Promise<boolean> } },
  auth: { signInThrottle: SignInThrottle },
) {
  return {
    sftpAuth: new SftpAuthService({
      db: infrastructure.db,
      sshKeys: sshKeys.sshKeys,
      throttle: auth.signInThrottle,
    }),
  };
}
