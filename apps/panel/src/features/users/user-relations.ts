import { type Relation, toOne } from '@aerie/panel/http/application/transformer';
import { findUsers } from './users.repository';

/** A parent's user (a server's owner), rendered as `user`; the include registry (`application-includes.ts`) wires it. */
export const userById = <T>(idOf: (parent: T) => number | null): Relation<T> =>
  toOne('users', 'user', findUsers, idOf);
