/** Errors and notices of the Settings page show under this key (spec §8). */
export const settingsFlashKey = 'settings';
