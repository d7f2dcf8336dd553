/** Errors of the Network page show under this key (spec §8). */
export const networkFlashKey = 'network';
