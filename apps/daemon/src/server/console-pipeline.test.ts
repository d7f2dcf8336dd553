import { describe, expect, it } from 'vitest';
import { ConsolePipeline } from './console-pipeline';

describe('ConsolePipeline', () => {
  it('keeps the last 150 lines, oldest first', () => {
    const pipeline = new ConsolePipeline();
    for (let i = 1; i <= 400; i++) pipeline.push(`line ${i}`);
    const history = pipeline.history();
    expect(history).toHaveLength(150);
    expect(history[0]).toBe('line 251');
    expect(history.at(-1)).toBe('line 400');
    expect(pipeline.history(3)).toEqual(['line 398', 'line 399', 'line 400']);
  });

  it('delivers 2000 lines per 100 ms window, then drops with one notice per episode', () => {
    let now = 1000;
    const pipeline = new ConsolePipeline({ now: () => now });
    const verdicts = Array.from({ length: 2003 }, () => pipeline.push('x'));
    expect(verdicts.filter((v) => v === 'deliver')).toHaveLength(2000);
    expect(verdicts.slice(2000)).toEqual(['drop with notice', 'drop', 'drop']);
    now += 99;
    expect(pipeline.push('x')).toBe('drop');
    // A new window lets lines through again, and the notice re-arms.
    now += 1;
    expect(pipeline.push('x')).toBe('deliver');
    for (let i = 0; i < 1999; i++) pipeline.push('x');
    expect(pipeline.push('x')).toBe('drop with notice');
  });

  it('starts a fresh window on reset', () => {
    const pipeline = new ConsolePipeline({ lines: 2, now: () => 0 });
    expect([pipeline.push('a'), pipeline.push('b'), pipeline.push('c')]).toEqual([
      'deliver',
      'deliver',
      'drop with notice',
    ]);
    pipeline.resetWindow();
    expect(pipeline.push('d')).toBe('deliver');
  });
});
