import type { AllocationAttributes, Item, List } from '../servers/server-wire';

/** Wire shapes of `/api/client/servers/{server}/network/allocations*` (reference §6 `allocation`). */
export type AllocationItem = Item<'allocation', AllocationAttributes>;
export type AllocationResponse = AllocationItem;
export type AllocationListResponse = List<AllocationItem>;
