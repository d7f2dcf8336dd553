import type { Db } from '@aerie/panel/db/database';
import { serverWithExternalId } from '@aerie/panel/features/servers/servers.repository';
import { fieldRuleFailed } from '@aerie/panel/http/validate';
import { serverAttributeNames } from '@aerie/shared/servers/server-application-bodies';

/**
 * @throws HttpError 422 `external_id` unique when another server (than `exceptId`) holds it; null is never taken
 */
export async function assertExternalIdFree(db: Db, externalId: string | null, exceptId?: number) {
  if (externalId === null) return;
  if (await serverWithExternalId(db, externalId, exceptId)) {
    throw fieldRuleFailed('external_id', 'unique', serverAttributeNames);
  }
}
