import { constants } from 'node:fs';

const { O_RDONLY, O_WRONLY, O_CREAT, O_EXCL, O_NOFOLLOW, O_NONBLOCK, O_NOCTTY } = constants;

/** Linux's O_PATH (same value on x86-64 and arm64); Node does not export it. */
export const O_PATH = 0o10000000;

/** An inode to change through its descriptor (chmod, times): never the target of a final symlink. */
export const NO_FOLLOW_PATH_FLAGS = O_PATH | O_NOFOLLOW;

/** Reading a regular file: never through a final link, and a pipe swapped in meanwhile cannot block the open. */
export const READ_FLAGS = O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY;

/** A new file for writing: an existing name (a symlink included) is never opened. */
export const CREATE_FLAGS = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_NOCTTY;
