import type { Infrastructure } from '@aerie/panel/infrastructure';
import { OverviewService } from './overview.service';

export function createOverviewFeature({ db, secretBox }: Infrastructure) {
  return { overview: new OverviewService({ db, secretBox }) };
}
