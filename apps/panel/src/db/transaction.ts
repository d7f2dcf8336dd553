import type { Transaction } from 'kysely';
import type { Database } from './schema';

/** A Kysely transaction on the panel schema (what db.transaction().execute() hands its callback). */
export type Tx = Transaction<Database>;
