/** Errors of the Databases page's list (spec §8 `databases`). */
export const databasesFlashKey = 'databases';

/** A refused create, shown inside the New Database modal. */
export const createDatabaseFlashKey = 'database:create';

/** A refused delete, shown inside the delete confirmation. */
export const deleteDatabaseFlashKey = 'database:delete';

/** A refused password rotation, shown inside the connection details modal. */
export const databaseConnectionFlashKey = 'database-connection-modal';
