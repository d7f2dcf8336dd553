/**
 * The egg's `done` matcher: the console line that tells the daemon a starting server is now running.
 * Each entry is a plain substring, or a `regex:`-prefixed Go regular expression (Wings' format). Any entry
 * matching is enough.
 */
export interface DoneConfig {
  /** A single matcher as legacy eggs have it, or a list. */
  done: string | readonly string[];
  strip_ansi?: boolean;
}

export type LineMatcher = (line: string) => boolean;

const REGEX_PREFIX = 'regex:';
const ESC = String.fromCharCode(27);
// CSI sequences (colours, cursor moves) and OSC sequences (window titles) that game consoles print.
const ANSI = new RegExp(`${ESC}(?:\\[[0-?]*[ -/]*[@-~]|\\][^\\u0007${ESC}]*(?:\\u0007|${ESC}\\\\)?)`, 'g');

export const stripAnsi = (line: string): string => line.replace(ANSI, '');

/**
 * Turns a Go (RE2) pattern into a JavaScript one. Covers what egg authors write: leading flag groups such
 * as `(?i)` and named groups `(?P<name>…)`; the rest of the syntax is shared. Throws on an invalid pattern.
 */
export function goRegExp(pattern: string): RegExp {
  let source = pattern;
  let flags = '';
  const leading = /^\(\?([imsU]+)\)/.exec(source);
  if (leading?.[1]) {
    source = source.slice(leading[0].length);
    // `U` (ungreedy) has no JavaScript counterpart; dropping it only changes what a match spans, not whether.
    flags = [...new Set(leading[1].replace('U', ''))].join('');
  }
  return new RegExp(source.replaceAll('(?P<', '(?<'), flags);
}

/** One `done` entry as a line test. Throws when a `regex:` entry does not compile. */
export function compileDoneEntry(entry: string): LineMatcher {
  if (entry.startsWith(REGEX_PREFIX)) {
    const regex = goRegExp(entry.slice(REGEX_PREFIX.length));
    return (line) => regex.test(line);
  }
  return (line) => line.includes(entry);
}

/** A function telling whether a console line marks the server as started. No matchers: never. */
export function doneMatcher(config: DoneConfig): LineMatcher {
  const entries = typeof config.done === 'string' ? [config.done] : config.done;
  const matchers = entries.map(compileDoneEntry);
  const strip = config.strip_ansi === true;
  return (line) => {
    const clean = strip ? stripAnsi(line) : line;
    return matchers.some((matches) => matches(clean));
  };
}
