import { z } from 'zod';
import { nullableText, present } from '../validation/laravel-fields';

/** Lengths of the Network page (reference §6 `allocation`). */
export const networkLimits = {
  notesMax: 256,
  /** The page saves a note this long after the last key press (spec §5, §9). */
  notesDebounceMs: 750,
} as const;

/** POST …/network/allocations/{allocation}: `notes` present|nullable|string|max:256 (null or "" clears them). */
export const allocationNotesBodySchema = z.object({ notes: present(nullableText(networkLimits.notesMax)) });

/** Error details of the network routes, word for word from the reference (§7.2 "Network allocations"). */
export const networkMessages = {
  limitReached: 'Cannot assign additional allocations to this server: limit has been reached.',
  autoAllocationDisabled: 'Server auto-allocation is not enabled for this instance.',
  noSpace: 'Cannot assign additional allocation: no more space available on node.',
  deleteWithoutLimit: 'You cannot delete allocations for this server: no allocation limit is set.',
  deletePrimary: 'You cannot delete the primary allocation for this server.',
} as const;
