import type { Compilable } from 'kysely';
import type { Db } from './database';

/**
 * A query built and compiled once and then run with a new value each time. Building and compiling a Kysely query
 * costs more than SQLite running a point look-up, and the look-ups made on every request (the session) need not
 * pay it. `build` is called once, with a marker in place of the value; its SQL must bind that value exactly once.
 */
export function reusableQuery<Row>(
  db: Pick<Db, 'executeQuery'>,
  build: (value: string) => Compilable<Row>,
): (value: string) => Promise<Row[]> {
  const marker = `\u0000reusable-query-${Math.random()}`;
  const compiled = build(marker).compile();
  const at = compiled.parameters.indexOf(marker);
  if (at === -1 || compiled.parameters.lastIndexOf(marker) !== at)
    throw new Error(`reusableQuery: the value must be bound exactly once in: ${compiled.sql}`);
  return async (value) =>
    (await db.executeQuery<Row>({ ...compiled, parameters: compiled.parameters.with(at, value) })).rows;
}
