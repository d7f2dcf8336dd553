import type { Infrastructure } from '@aerie/panel/infrastructure';
import { TransferReports } from './transfer-reports';
import { TransfersService } from './transfers.service';

/**
 * Server transfers between nodes (reference/wings.md §1.5): what an administrator starts and cancels, and how
 * transfers end otherwise (the daemons' reports, a daemon's or the panel's restart, which cli/serve.ts reports).
 */
export function createTransfersFeature({ db, daemon, secretBox, clock, log, config }: Infrastructure) {
  const deps = { db, daemon, secretBox, clock, log, issuer: config.appUrl };
  return { transfers: new TransfersService(deps), transferReports: new TransferReports(deps) };
}
