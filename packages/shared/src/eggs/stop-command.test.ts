import { describe, expect, it } from 'vitest';
import { parseStopCommand } from './stop-command';

describe('parseStopCommand', () => {
  it.each([
    ['stop', { type: 'command', value: 'stop' }],
    ['/quit', { type: 'command', value: '/quit' }],
    ['save-all && stop', { type: 'command', value: 'save-all && stop' }],
    ['^C', { type: 'signal', value: 'SIGINT' }],
    ['^c', { type: 'signal', value: 'SIGINT' }],
    ['^SIGINT', { type: 'signal', value: 'SIGINT' }],
    ['^SIGTERM', { type: 'signal', value: 'SIGTERM' }],
    ['^TERM', { type: 'signal', value: 'SIGTERM' }],
    ['^sigabrt', { type: 'signal', value: 'SIGABRT' }],
    ['^SIGUSR1', { type: 'signal', value: 'SIGKILL' }],
    ['^', { type: 'signal', value: 'SIGKILL' }],
  ])('%j → %j', (stop, action) => {
    expect(parseStopCommand(stop)).toEqual(action);
  });
});
