import type { Infrastructure } from '@aerie/panel/infrastructure';
import { EggsService } from './eggs.service';

/** The eggs feature's services, built once from the infrastructure. */
export function createEggsFeature({ db, clock }: Infrastructure) {
  return { eggs: new EggsService({ db, clock }) };
}
