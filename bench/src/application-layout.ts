/** What application-seed.cli.ts made, for the bench's request bodies. */
export interface ApplicationSeed {
  nodeId: number;
  locationId: number | null;
  eggId: number;
  ownerId: number;
  /** One free allocation per explicit create, in port order. */
  explicitAllocationIds: number[];
  /** `deploy.port_range` covering exactly the deploy pool (ranges of at most 1,000 ports, as the API allows). */
  deployPortRange: string[];
}

const EXPLICIT_FIRST_PORT = 20_000;
const DEPLOY_FIRST_PORT = 40_000;

/**
 * Ports of the bench node, on one address: `explicit` for bodies naming their allocation, and a separate pool for
 * `deploy` 10 % larger than `deploy` (the last deployments still pick among free ports, not race for one).
 */
export function allocationLayout(explicit: number, deploy: number) {
  if (explicit + EXPLICIT_FIRST_PORT > DEPLOY_FIRST_PORT || deploy * 1.1 + DEPLOY_FIRST_PORT > 65_535) {
    throw new Error('too many servers for one address');
  }
  const range = (first: number, count: number) => Array.from({ length: count }, (_, i) => first + i);
  const deployPorts = range(DEPLOY_FIRST_PORT, Math.ceil(deploy * 1.1));
  const deployPortRange: string[] = [];
  for (let start = 0; start < deployPorts.length; start += 1000) {
    const chunk = deployPorts.slice(start, start + 1000);
    deployPortRange.push(`${chunk[0]}-${chunk.at(-1)}`);
  }
  return {
    ip: '10.0.0.1',
    explicitPorts: range(EXPLICIT_FIRST_PORT, explicit),
    deployPorts,
    deployPortRange,
  };
}
