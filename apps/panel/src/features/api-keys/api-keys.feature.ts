import type { Infrastructure } from '@aerie/panel/infrastructure';
import { ApiKeyService } from './api-keys.service';

/** Account API keys: creation, the client API's key checks, listing and revocation. */
export function createApiKeysFeature(infrastructure: Infrastructure) {
  const { db, clock, log } = infrastructure;
  return { apiKeys: new ApiKeyService({ db, clock, log }) };
}
