import { describe, expect, it } from 'vitest';
import { hasPermission } from './permissions';

describe('hasPermission', () => {
  it.each([
    [['websocket.connect'], 'websocket.connect', true],
    [['websocket.connect'], 'control.console', false],
    [['*'], 'control.console', true],
    [['*'], 'websocket.connect', true],
    [['*'], 'admin.websocket.install', false],
    [['*'], 'admin.websocket.errors', false],
    [['*', 'admin.websocket.install'], 'admin.websocket.install', true],
    [[], 'websocket.connect', false],
    [['control.*'], 'control.start', false],
  ])('%j grants %s: %s', (granted, permission, expected) => {
    expect(hasPermission(granted, permission)).toBe(expected);
  });
});
