import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP, isIPv4 } from 'node:net';
import type { Db } from '@aerie/panel/db/database';
import type { Audit } from '@aerie/panel/features/audit/audit-log';
import { displayError, HttpError, notFound } from '@aerie/panel/http/errors';
import { type AllocationBody, nodeMessages } from '@aerie/shared/nodes/nodes-bodies';
import {
  type ApplicationAllocation,
  allocationExistsOnNode,
  deleteFreeAllocation,
  findAllocationOnNode,
  insertAllocationsSkippingTaken,
  type NewAllocation,
} from './allocations.repository';

/**
 * What one POST of allocations added, as the audit log shows it: the request's terms (a block can be 65,536 rows,
 * too many for a log entry), not each allocation.
 */
export type AllocationsAdded = {
  node_id: number;
  ip: string;
  alias: string | null;
  ports: string[];
};

/** How an allocation POST renders in the audit log: as it is. */
export const allocationsAddedSubject = {
  object: 'allocation',
  attributes: (added: AllocationsAdded) => ({ ...added }),
};

/**
 * Most (ip, port) pairs one POST may ask for, counted before anything is written (existing pairs included).
 * Upstream has no bound: a /25 with a few ranges of 1,000 ports is hundreds of thousands of rows in one
 * transaction, and an IPv6 block would never end. 65,536 is every port of one address, or a /25 with 512 each.
 */
export const MAX_ALLOCATIONS_PER_REQUEST = 65_536;

/** Rows per INSERT statement (SQLite's bound-parameter limit, 8 columns per row). */
const INSERT_CHUNK = 500;
const LOOKUP_TIMEOUT_MS = 5000;
const PORT_FLOOR = 1024;
const PORT_CEIL = 65535;
const PORT_RANGE_LIMIT = 1000;
const PORT_RANGE = /^(\d{4,5})-(\d{4,5})$/;

/** A host name to one IPv4 address, or null when it does not resolve (upstream's gethostbyname). */
export type ResolveIpv4 = (host: string) => Promise<string | null>;

export const resolveWithDns: ResolveIpv4 = async (host) => {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), LOOKUP_TIMEOUT_MS);
  });
  try {
    return await Promise.race([
      dnsLookup(host, { family: 4 }).then(
        (found) => found.address,
        () => null,
      ),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
};

const cidrOutOfRange = () => new HttpError(400, 'CidrOutOfRangeException', nodeMessages.cidrOutOfRange);
const portOutOfRange = () => new HttpError(400, 'PortOutOfRangeException', nodeMessages.portOutOfRange);

/** An inclusive run of ports. */
interface PortRun {
  from: number;
  to: number;
}

/**
 * The `ports` entries, in order, with upstream's checks and exceptions: each entry is digits or `NNNN-NNNNN`
 * (400 InvalidPortMappingException), a range holds at most 1,000 ports (400 TooManyPortsInRangeException), and
 * every port is > 1024 and ≤ 65535 (400 PortOutOfRangeException). A range may be written high to low, as
 * PHP's `range()` allows; unlike upstream both of its ends are checked against the bounds.
 */
export function parsePortEntries(entries: string[]): PortRun[] {
  return entries.map((entry) => {
    const range = PORT_RANGE.exec(entry);
    if (range) {
      const [a, b] = [Number(range[1]), Number(range[2])];
      const run = { from: Math.min(a, b), to: Math.max(a, b) };
      if (run.to - run.from + 1 > PORT_RANGE_LIMIT) {
        throw new HttpError(400, 'TooManyPortsInRangeException', nodeMessages.tooManyPortsInRange);
      }
      if (run.from <= PORT_FLOOR || run.to > PORT_CEIL) throw portOutOfRange();
      return run;
    }
    if (!/^\d+$/.test(entry)) {
      throw new HttpError(400, 'InvalidPortMappingException', nodeMessages.invalidPortMapping(entry));
    }
    const port = Number(entry);
    if (port <= PORT_FLOOR || port > PORT_CEIL) throw portOutOfRange();
    return { from: port, to: port };
  });
}

/** A block of addresses: IPv4 as numbers (first..last), or one IPv6 address. */
type AddressBlock = { v4: { first: number; count: number } } | { v6: string; count: number };

const ipv4ToNumber = (ip: string) => ip.split('.').reduce((value, octet) => value * 256 + Number(octet), 0);
const numberToIpv4 = (value: number) =>
  [24, 16, 8, 0].map((shift) => Math.floor(value / 2 ** shift) % 256).join('.');
/** The canonical (compressed, lower-case) text of an IPv6 address. */
const canonicalIpv6 = (ip: string) => new URL(`http://[${ip}]/`).hostname.slice(1, -1);

/**
 * `address` or `address/mask` as IPTools' Network::parse reads it: every address of the block, network and
 * broadcast included. IPv6 is taken as one address; an IPv6 block is counted (and refused by the caller's bound).
 * @throws Error "Invalid IP address format" when it is neither IPv4 nor IPv6
 */
function parseBlock(value: string): AddressBlock {
  const [address = '', mask, ...extra] = value.split('/');
  const family = isIP(address);
  if (family === 0 || extra.length > 0 || (mask !== undefined && !/^\d{1,3}$/.test(mask))) {
    throw new Error('Invalid IP address format');
  }
  const bits = family === 4 ? 32 : 128;
  const prefix = mask === undefined ? bits : Number(mask);
  if (prefix > bits) throw new Error('Invalid prefix length');
  if (family === 6) return { v6: canonicalIpv6(address), count: 2 ** (bits - prefix) };
  const size = 2 ** (32 - prefix);
  return { v4: { first: Math.floor(ipv4ToNumber(address) / size) * size, count: size } };
}

const blockSize = (block: AddressBlock) => ('v4' in block ? block.v4.count : block.count);

function* addressesOf(block: AddressBlock): Generator<string> {
  if ('v6' in block) {
    yield block.v6;
    return;
  }
  for (let offset = 0; offset < block.v4.count; offset++) yield numberToIpv4(block.v4.first + offset);
}

/** A node's allocations: add many at once, delete a free one. */
export class AllocationsService {
  constructor(private readonly deps: { db: Db; clock: () => Date; resolveIpv4?: ResolveIpv4 }) {}

  /**
   * Upstream's AssignmentService: `ip` (address, host name resolved to one IPv4, or CIDR /25–/32) × each
   * `ports` entry, inserted all-or-nothing in one transaction; pairs the node already has are skipped (their
   * alias is left as it was). Every check runs before the first write.
   * @throws HttpError 400 (CidrOutOfRangeException, DisplayException, InvalidPortMappingException,
   *   TooManyPortsInRangeException, PortOutOfRangeException, or more than MAX_ALLOCATIONS_PER_REQUEST pairs)
   * @param audit records one entry for the whole request, without a subject id: an allocation entry's id is an
   *   allocation's, and these have many (the node is in the entry)
   */
  async create(nodeId: number, input: AllocationBody, audit: Audit<AllocationsAdded>): Promise<void> {
    const parts = input.ip.split('/');
    if (parts.length > 1) {
      const mask = parts[1] ?? '';
      if (!/^\d+$/.test(mask) || Number(mask) > 32 || Number(mask) < 25) throw cidrOutOfRange();
    }
    let underlying = input.ip;
    if (parts.length === 1 && isIP(input.ip) === 0) {
      const resolved = await (this.deps.resolveIpv4 ?? resolveWithDns)(input.ip);
      // Upstream's gethostbyname answers the name itself when it does not resolve, which then fails to parse.
      if (resolved && isIPv4(resolved)) underlying = resolved;
    }
    let block: AddressBlock;
    try {
      block = parseBlock(underlying);
    } catch (error) {
      throw displayError(nodeMessages.unparsableIp(input.ip, (error as Error).message));
    }
    const runs = parsePortEntries(input.ports);
    const portsPerAddress = runs.reduce((sum, run) => sum + run.to - run.from + 1, 0);
    if (blockSize(block) * portsPerAddress > MAX_ALLOCATIONS_PER_REQUEST) {
      throw displayError(nodeMessages.tooManyAllocations(MAX_ALLOCATIONS_PER_REQUEST));
    }
    const ports = new Set<number>();
    for (const run of runs) for (let port = run.from; port <= run.to; port++) ports.add(port);

    const { db } = this.deps;
    const now = this.deps.clock();
    await db.transaction().execute(async (tx) => {
      let pending: NewAllocation[] = [];
      const flush = async () => {
        await insertAllocationsSkippingTaken(tx, nodeId, pending, input.alias ?? null, now);
        pending = [];
      };
      for (const ip of addressesOf(block)) {
        for (const port of ports) {
          pending.push({ ip, port });
          if (pending.length >= INSERT_CHUNK) await flush();
        }
      }
      await flush();
      const added = { node_id: nodeId, ip: input.ip, alias: input.alias ?? null, ports: input.ports };
      await audit(tx, { subjectId: null, after: added });
    });
  }

  /**
   * Deletes an allocation of `nodeId` that no server holds, in one statement (`… where server_id is null`), so
   * a server claiming it at the same moment either gets it or finds it gone, never loses it afterwards.
   * @throws HttpError 404 when the node has no such allocation, 400 ServerUsingAllocationException when assigned
   */
  async delete(nodeId: number, allocationId: number, audit: Audit<ApplicationAllocation>): Promise<void> {
    await this.deps.db.transaction().execute(async (tx) => {
      const before = await findAllocationOnNode(tx, nodeId, allocationId);
      if (before && (await deleteFreeAllocation(tx, nodeId, allocationId))) {
        await audit(tx, { subjectId: allocationId, before });
        return;
      }
      const held = await allocationExistsOnNode(tx, nodeId, allocationId);
      if (!held) throw notFound();
      throw new HttpError(400, 'ServerUsingAllocationException', nodeMessages.serverUsingAllocation);
    });
  }
}
