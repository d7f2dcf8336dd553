import { HttpError } from '@aerie/panel/http/errors';
import { serverDatabaseMessages } from '@aerie/shared/databases/databases-bodies';
import { DatabaseHostFailure } from './server-databases.service';

/**
 * Runs a database change and words a host's failure for who asked: 502 either way (the panel's own request failed
 * upstream of it, nothing was changed); a client is told to try again later (the host's error may name its admin
 * account), an administrator on the Application API gets the host's own message. Upstream answers a generic 500.
 */
export async function answeringHostFailure<T>(
  audience: 'client' | 'application',
  work: () => Promise<T>,
): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (!(error instanceof DatabaseHostFailure)) throw error;
    throw new HttpError(
      502,
      'HttpException',
      audience === 'client'
        ? serverDatabaseMessages.hostFailed
        : serverDatabaseMessages.hostFailedWith(error.message),
    );
  }
}
