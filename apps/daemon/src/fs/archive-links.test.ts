import { describe, expect, it } from 'vitest';
import { linkStaysInside } from './archive-links';

/** [where the link is, its target, points inside the server's files?] */
const TABLE: [path: string, target: string, inside: boolean][] = [
  ['game.ini', 'config/game.ini', true],
  ['a/b/link', '../../top.txt', true],
  ['a/b/link', '../../../out', false],
  ['link', '..', false],
  ['.steam/sdk64/steamclient.so', '/home/container/.steam/steamcmd/linux64/steamclient.so', true],
  ['home', '/home/container', true],
  ['from-installer', '/mnt/server/serverfiles/bin', true],
  ['up', '/home/container/../../etc', false],
  ['twin', '/home/container2/x', false],
  ['java', '/usr/bin/java', false],
  ['empty', '', false],
];

describe('links a backup keeps and a restore makes', () => {
  it.each(TABLE)('%s -> %s: inside %s', (path, target, inside) => {
    expect(linkStaysInside(path.split('/'), target)).toBe(inside);
  });
});
