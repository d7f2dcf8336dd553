/** Where the nodes section's flashes show. */
export const nodesFlashKey = 'admin:nodes';
export const nodeFlashKey = 'admin:node';
export const allocationsFlashKey = 'admin:node:allocations';
