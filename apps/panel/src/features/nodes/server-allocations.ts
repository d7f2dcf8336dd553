// What the nodes feature offers other features about the allocations servers hold (creation, build changes,
// deletion), on top of its allocations repository.
export {
  claimFreeAllocations,
  findAllocationHolder,
  findFreeAllocation,
  freeAllocationCandidates,
  freeAllocationIdsOnNode,
  releaseAllAllocations,
  releaseAllocations,
} from './allocations.repository';
