import type { Compilable, CompiledQuery } from 'kysely';
import type { Db } from './database';

/** The values a reusable query binds: what its look-up is by. */
type Values = readonly (string | number)[];

/**
 * A query built and compiled once per database (or transaction) it is asked of, then run with new values each time.
 * Building and compiling a Kysely query costs more than SQLite running a point look-up, and the look-ups made on
 * every request (the session, the server and its node) need not pay it. `build` is called once, with markers in
 * place of the values; its SQL must bind each exactly once.
 */
export function reusableQuery<V extends Values, Row>(
  build: (db: Db, ...values: V) => Compilable<Row>,
): (db: Db, ...values: V) => Promise<Row[]> {
  const compiled = new WeakMap<Db, { query: CompiledQuery<Row>; at: number[] }>();
  const compile = (db: Db, count: number) => {
    const markers = Array.from(
      { length: count },
      (_, index) => `\u0000reusable-query-${index}-${Math.random()}`,
    );
    const query = build(db, ...(markers as unknown as V)).compile();
    const at = markers.map((marker) => {
      const index = query.parameters.indexOf(marker);
      if (index === -1 || query.parameters.lastIndexOf(marker) !== index)
        throw new Error(`reusableQuery: each value must be bound exactly once in: ${query.sql}`);
      return index;
    });
    const made = { query, at };
    compiled.set(db, made);
    return made;
  };
  return async (db, ...values) => {
    const { query, at } = compiled.get(db) ?? compile(db, values.length);
    const parameters = [...query.parameters];
    for (const [index, position] of at.entries()) parameters[position] = values[index];
    return (await db.executeQuery<Row>({ ...query, parameters })).rows;
  };
}
