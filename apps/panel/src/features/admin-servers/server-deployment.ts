import type { Db } from '@aerie/panel/db/database';
import { freeAllocationCandidates } from '@aerie/panel/features/nodes/server-allocations';
import { displayError, HttpError } from '@aerie/panel/http/errors';
import { serverApplicationMessages } from '@aerie/shared/servers/server-application-bodies';

/** `deploy` of POST /api/application/servers (reference application API §4.3). */
export interface DeploySpec {
  locations: number[];
  dedicatedIp: boolean;
  portRange: string[];
}

const RANGE = /^(\d{4,5})-(\d{4,5})$/;

/**
 * `port_range` entries: all digits = one port, `NNNN-NNNNN` = an inclusive range (wider than 1000 refused);
 * anything else is ignored, as upstream does. Nothing valid = no restriction.
 * @throws HttpError 400 DisplayException for a range wider than 1000 ports
 */
export function parsePortRange(entries: string[]) {
  const single: number[] = [];
  const ranges: [number, number][] = [];
  for (const entry of entries) {
    if (/^\d{1,5}$/.test(entry)) single.push(Number(entry));
    const match = RANGE.exec(entry);
    if (match) {
      const [start, end] = [Number(match[1]), Number(match[2])];
      if (Math.abs(end - start) > 1000) throw displayError(serverApplicationMessages.tooManyPorts);
      ranges.push([Math.min(start, end), Math.max(start, end)]);
    }
  }
  return { single, ranges };
}

/** How many free allocations one pick chooses among, at random. */
const CANDIDATES = 200;

/**
 * A free allocation on one of `nodeIds` matching the port spec (and, for a dedicated IP, on an address no
 * server uses yet), picked at random among the first candidates so parallel deployments rarely collide.
 * @param skip allocations a previous attempt lost to a parallel request
 * @throws HttpError 400 NoViableAllocationException
 */
export async function pickAllocation(
  db: Db,
  nodeIds: number[],
  deploy: DeploySpec,
  skip: ReadonlySet<number> = new Set(),
): Promise<{ id: number; nodeId: number }> {
  const rows = (
    await freeAllocationCandidates(db, {
      nodeIds,
      ports: parsePortRange(deploy.portRange),
      dedicatedIp: deploy.dedicatedIp,
      limit: CANDIDATES + skip.size,
    })
  ).filter((row) => !skip.has(row.id));
  const chosen = rows[Math.floor(Math.random() * rows.length)];
  if (!chosen) {
    throw new HttpError(400, 'NoViableAllocationException', serverApplicationMessages.noViableAllocation);
  }
  return { id: chosen.id, nodeId: chosen.node_id };
}
