// What the nodes feature offers other features about the allocations servers hold (creation, build changes,
// deletion, bootstrap's demo server), on top of its allocations repository.
export {
  claimFreeAllocations,
  findAllocationHolder,
  findFreeAllocation,
  freeAllocationCandidates,
  freeAllocationIdsOnNode,
  lowestFreeAllocation,
  releaseAllAllocations,
  releaseAllocations,
} from './allocations.repository';
