/** Errors of the SSH Keys page (loading, adding, removing) show at the top of that page, under a key of their own. */
export const sshKeysFlashKey = 'account:ssh-keys';
