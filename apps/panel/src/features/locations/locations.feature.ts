import type { Infrastructure } from '@aerie/panel/infrastructure';
import { LocationsService } from './locations.service';

export function createLocationsFeature({ db, clock }: Infrastructure) {
  return { locations: new LocationsService({ db, clock }) };
}
