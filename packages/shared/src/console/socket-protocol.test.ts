import { describe, expect, it } from 'vitest';
import { finalCloseCodes, isRefreshableJwtError, jwtErrors } from './socket-events';
import { connectTimeoutMs } from './socket-limits';
import { encodeSocketMessage, parseSocketMessage } from './socket-message';
import { parseServerStats } from './socket-stats';

describe('socket frames', () => {
  it('leaves args out when there are none', () => {
    expect(encodeSocketMessage('send logs')).toBe('{"event":"send logs"}');
    expect(encodeSocketMessage('set state', ['start'])).toBe('{"event":"set state","args":["start"]}');
  });

  it.each([
    ['{"event":"status","args":["running"]}', { event: 'status', args: ['running'] }],
    ['{"event":"auth success"}', { event: 'auth success' }],
    ['{"event":"stats","args":[]}', { event: 'stats', args: [] }],
    ['{"event":"send logs","args":null}', { event: 'send logs' }],
  ])('reads %s', (text, expected) => {
    expect(parseSocketMessage(text)).toEqual(expected);
  });

  it.each([
    'not json',
    'null',
    '"status"',
    '{"args":["x"]}',
    '{"event":""}',
    '{"event":3}',
    '{"event":"status","args":"running"}',
    '{"event":"status","args":[1]}',
  ])('drops the malformed frame %s', (text) => {
    expect(parseSocketMessage(text)).toBeNull();
  });
});

describe('jwt errors', () => {
  it.each([
    [jwtErrors.expired, true],
    [jwtErrors.denied, true],
    ['JWT: EXP CLAIM IS INVALID', true],
    [jwtErrors.missingConnect, false],
    [jwtErrors.serverMismatch, false],
    [jwtErrors.noToken, false],
  ])('"%s" is cured by a fresh token: %s', (reason, refreshable) => {
    expect(isRefreshableJwtError(reason)).toBe(refreshable);
  });

  it('does not reconnect after a normal close, going away or no status', () => {
    expect(finalCloseCodes).toEqual([1000, 1001, 1005]);
  });
});

describe('connect time-out', () => {
  it('starts at 5 s and grows by 2.5 s up to 20 s', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 7, 50].map(connectTimeoutMs)).toEqual([
      5000, 7500, 10_000, 12_500, 15_000, 17_500, 20_000, 20_000, 20_000,
    ]);
  });
});

describe('stats', () => {
  it('reads Wings’ utilization object', () => {
    const json = JSON.stringify({
      memory_bytes: 1024,
      memory_limit_bytes: 4096,
      cpu_absolute: 12.5,
      network: { rx_bytes: 10, tx_bytes: 20 },
      uptime: 65_000,
      state: 'running',
      disk_bytes: 2048,
    });
    expect(parseServerStats(json)).toEqual({
      memory_bytes: 1024,
      memory_limit_bytes: 4096,
      cpu_absolute: 12.5,
      network: { rx_bytes: 10, tx_bytes: 20 },
      uptime: 65_000,
      state: 'running',
      disk_bytes: 2048,
    });
  });

  it('counts missing figures as 0', () => {
    expect(parseServerStats('{"cpu_absolute":"high","state":"offline"}')).toEqual({
      memory_bytes: 0,
      memory_limit_bytes: 0,
      cpu_absolute: 0,
      network: { rx_bytes: 0, tx_bytes: 0 },
      uptime: 0,
      state: 'offline',
      disk_bytes: 0,
    });
  });

  it.each([undefined, '', 'nope', '[1]', 'null'])('ignores %j', (json) => {
    expect(parseServerStats(json)).toBeNull();
  });
});
