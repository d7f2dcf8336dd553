import { describe, expect, it } from 'vitest';
import { canAll, canAny, hasPermission } from './can';

describe('hasPermission', () => {
  it.each([
    // held, wanted, expected
    [['*'], 'control.start', true],
    [['*'], 'file.*', true],
    [['*'], 'anything.at.all', true],
    [['*', 'control.start'], 'backup.delete', true],
    [['control.start', '*'], 'backup.delete', false],
    [['control.start', '*'], 'control.start', true],
    [[], 'control.start', false],
    [[], 'file.*', false],
    [['control.start'], 'control.start', true],
    [['control.start'], 'control.stop', false],
    [['control.start'], 'control', false],
    [['file.read'], 'file.*', true],
    [['websocket.connect', 'file.sftp'], 'file.*', true],
    [['file.read'], 'backup.*', false],
    [['files.read'], 'file.*', false],
    [['file'], 'file.*', false],
    [['file.read'], 'file.read-content', false],
    [['file.read-content'], 'file.read', false],
    [['file.*'], 'file.read', false],
    [['admin.websocket.errors'], 'admin.websocket.*', true],
    [['admin.other'], 'admin.websocket.*', false],
    [['Control.Start'], 'control.start', false],
  ] as const)('held %j, wanted %j → %s', (held, wanted, expected) => {
    expect(hasPermission(held, wanted)).toBe(expected);
  });
});

describe('canAll and canAny', () => {
  const power = ['control.start', 'control.stop', 'control.restart'];

  it.each([
    [['control.start'], power, false, true],
    [['control.start', 'control.stop', 'control.restart'], power, true, true],
    [['*'], power, true, true],
    [['file.read'], power, false, false],
    [[], power, false, false],
    [['file.read'], ['file.*', 'control.start'], false, true],
    [['file.read', 'control.start'], ['file.*', 'control.start'], true, true],
    [['file.read'], [], true, false],
  ] as const)('held %j, wanted %j → all %s, any %s', (held, wanted, all, any) => {
    expect(canAll(held, wanted)).toBe(all);
    expect(canAny(held, wanted)).toBe(any);
  });
});
