import { describe, expect, it } from 'vitest';
import { doneMatcher, goRegExp, stripAnsi } from './done-matcher';

const ESC = String.fromCharCode(27);

describe('doneMatcher', () => {
  it.each([
    // done, line, matches
    [')! For help, type ', '[12:00:03 INFO]: Done (3.2s)! For help, type "help"', true],
    [')! For help, type ', '[12:00:01 INFO]: Preparing level "world"', false],
    ['Server started on ', 'Server started on 0.0.0.0:25565 — type "help" for commands', true],
    ['server started on ', 'Server started on 0.0.0.0:25565', false],
    ['a.c', 'abc', false],
    ['a.c', 'xa.cx', true],
    ['regex:^Done \\(\\d+\\.\\d+s\\)!', 'Done (3.25s)! For help', true],
    ['regex:^Done \\(\\d+\\.\\d+s\\)!', '[INFO] Done (3.25s)!', false],
    ['regex:a.c', 'xabcx', true],
    ['regex:(?i)server READY', 'Server ready', true],
    ['regex:server READY', 'Server ready', false],
    ['regex:(?P<port>\\d+) is open', 'port 27015 is open', true],
    [['Hosting game at', 'regex:Listening on port \\d+'], 'Listening on port 34197', true],
    [['Hosting game at', 'regex:Listening on port \\d+'], 'Hosting game at IP ADDR:({0.0.0.0:34197})', true],
    [['Hosting game at', 'regex:Listening on port \\d+'], 'Listening on port x', false],
    [[], 'anything', false],
  ] as const)('done %j on %j → %s', (done, line, expected) => {
    expect(doneMatcher({ done })(line)).toBe(expected);
  });

  it('matches through colour codes only when strip_ansi is set', () => {
    const line = `${ESC}[32mServer${ESC}[0m started`;
    expect(doneMatcher({ done: 'Server started' })(line)).toBe(false);
    expect(doneMatcher({ done: 'Server started', strip_ansi: true })(line)).toBe(true);
  });

  it('refuses a regex that does not compile', () => {
    expect(() => doneMatcher({ done: ['regex:(unclosed'] })).toThrow(/Invalid regular expression/);
  });
});

describe('stripAnsi', () => {
  it.each([
    [`${ESC}[1;31mred${ESC}[0m text`, 'red text'],
    [`${ESC}]0;window title\u0007after`, 'after'],
    [`${ESC}[2K${ESC}[1Gprompt> `, 'prompt> '],
    ['plain', 'plain'],
  ])('%j → %j', (input, output) => {
    expect(stripAnsi(input)).toBe(output);
  });
});

describe('goRegExp', () => {
  it.each([
    ['(?i)abc', 'abc', 'i'],
    ['(?is)a.c', 'a.c', 'is'],
    ['(?U)a+', 'a+', ''],
    ['(?P<name>x)', '(?<name>x)', ''],
  ])('%s → /%s/%s', (pattern, source, flags) => {
    const regex = goRegExp(pattern);
    expect(regex.source).toBe(source);
    expect(regex.flags).toBe(flags);
  });
});
