import type { Infrastructure } from '@aerie/panel/infrastructure';
import { MountsService } from './mounts.service';

export function createMountsFeature({ db }: Infrastructure) {
  return { mounts: new MountsService({ db }) };
}
