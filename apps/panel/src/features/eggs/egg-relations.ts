import { type Relation, toOne } from '@aerie/panel/http/application/transformer';
import { findEggs, findNests } from './eggs.repository';

// Application API includes that render eggs and nests for other features' items (a server's); the include
// registry (`application-includes.ts`) wires them.

export const eggById = <T>(idOf: (parent: T) => number | null): Relation<T> =>
  toOne('eggs', 'egg', findEggs, idOf);

export const nestById = <T>(idOf: (parent: T) => number | null): Relation<T> =>
  toOne('nests', 'nest', findNests, idOf);
