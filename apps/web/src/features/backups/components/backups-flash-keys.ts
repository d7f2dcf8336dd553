/** Errors of the Backups page: the list, download, restore and delete (spec §8 "the backups area"). */
export const backupsFlashKey = 'backups';

/** Errors of a refused create, shown inside the create modal (part of the backups area). */
export const createBackupFlashKey = 'backups:create';
