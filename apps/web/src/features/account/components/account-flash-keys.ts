/** Where the two-factor modals show their errors (spec §8). */
export const twoFactorFlashKey = 'account:two-factor';
