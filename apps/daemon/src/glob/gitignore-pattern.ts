/**
 * One gitignore pattern, compiled for matching in time bounded by pattern length × path length (no regular
 * expression, so no backtracking blowup whatever the game writes into `.pteroignore` or an egg into its
 * `file_denylist`). Used by a backup's ignore rules (backups/ignore-rules.ts) and the egg denylist (fs/denylist.ts).
 *
 * The pattern is split at `/` into segments; a segment is matched against one path name by a two-pointer wildcard
 * match (`*`, `?`, `[…]`), and the segments against the path's names by simulating the automaton they form, where
 * `**` loops on any name. One pass over the names tells whether the pattern matches the path or a folder above it.
 */

/** A matcher's work counter: one step is one character or one state looked at. */
export interface StepCounter {
  steps: number;
}

type Token =
  | { kind: 'star' }
  | { kind: 'any' }
  | { kind: 'char'; char: string }
  | { kind: 'class'; negated: boolean; ranges: [number, number][] };

type Segment =
  | { kind: 'globstar' }
  | { kind: 'literal'; text: string }
  | { kind: 'glob'; tokens: Token[] }
  /** A `[` never closed: git's wildmatch gives up on such a pattern, it matches nothing. */
  | { kind: 'never' };

export interface CompiledPattern {
  negated: boolean;
  /** A trailing `/`: only folders (and what is inside them) match. */
  directoryOnly: boolean;
  segments: Segment[];
}

/**
 * Reads one line of an ignore file: `undefined` for blank lines and `#` comments. Leading blanks are dropped (as
 * Wings' go-gitignore), trailing ones unless escaped (`\ `); `\#` and `\!` start a pattern with those characters.
 */
export function compilePattern(line: string): CompiledPattern | undefined {
  let text = line.trimStart();
  let end = text.length;
  while (end > 0 && /\s/.test(text[end - 1] as string)) end -= 1;
  if (end < text.length && text[end - 1] === '\\') end += 1; // `\ `: an escaped blank stays
  text = text.slice(0, end);
  if (text === '' || text.startsWith('#')) return undefined;
  const negated = text.startsWith('!');
  if (negated) text = text.slice(1);
  if (text.startsWith('\\#') || text.startsWith('\\!')) text = text.slice(1);
  const directoryOnly = text.endsWith('/');
  text = text.replace(/\/+$/, '');
  // A slash at the start or in the middle anchors the pattern to the root; a bare name matches at any depth.
  const anchored = text.includes('/');
  const parts = text.split('/').filter((part) => part !== '');
  if (parts.length === 0) return undefined;
  const segments: Segment[] = anchored ? [] : [{ kind: 'globstar' }];
  for (const part of parts) {
    const segment = compileSegment(part);
    if (segment.kind === 'globstar' && segments.at(-1)?.kind === 'globstar') continue;
    segments.push(segment);
  }
  // A trailing `/**` matches everything inside, not the folder itself: at least one more name.
  if (segments.at(-1)?.kind === 'globstar') segments.push({ kind: 'glob', tokens: [{ kind: 'star' }] });
  return { negated, directoryOnly, segments };
}

function compileSegment(part: string): Segment {
  if (part === '**') return { kind: 'globstar' };
  const chars = Array.from(part);
  const tokens: Token[] = [];
  for (let index = 0; index < chars.length; index += 1) {
    const char = chars[index] as string;
    if (char === '*') {
      // `a**b` is `a*b`: consecutive stars are one.
      if (tokens.at(-1)?.kind !== 'star') tokens.push({ kind: 'star' });
    } else if (char === '?') {
      tokens.push({ kind: 'any' });
    } else if (char === '\\' && index + 1 < chars.length) {
      index += 1;
      tokens.push({ kind: 'char', char: chars[index] as string });
    } else if (char === '[') {
      const parsed = parseClass(chars, index);
      if (parsed === undefined) return { kind: 'never' };
      tokens.push(parsed.token);
      index = parsed.end;
    } else {
      tokens.push({ kind: 'char', char });
    }
  }
  if (tokens.every((token) => token.kind === 'char')) {
    return { kind: 'literal', text: tokens.map((token) => (token as { char: string }).char).join('') };
  }
  return { kind: 'glob', tokens };
}

/** `[abc]`, `[a-z]`, `[!…]` or `[^…]` (not), `]` first is a member; `undefined` when never closed. */
function parseClass(chars: string[], start: number): { token: Token; end: number } | undefined {
  let index = start + 1;
  let negated = false;
  if (chars[index] === '!' || chars[index] === '^') {
    negated = true;
    index += 1;
  }
  const ranges: [number, number][] = [];
  let first = true;
  while (index < chars.length) {
    let char = chars[index] as string;
    if (char === ']' && !first) return { token: { kind: 'class', negated, ranges }, end: index };
    first = false;
    if (char === '\\' && index + 1 < chars.length) {
      index += 1;
      char = chars[index] as string;
    }
    const low = char.codePointAt(0) as number;
    if (chars[index + 1] === '-' && index + 2 < chars.length && chars[index + 2] !== ']') {
      let high = chars[index + 2] as string;
      index += 2;
      if (high === '\\' && index + 1 < chars.length) {
        index += 1;
        high = chars[index] as string;
      }
      ranges.push([low, high.codePointAt(0) as number]);
    } else {
      ranges.push([low, low]);
    }
    index += 1;
  }
  return undefined;
}

function tokenMatches(token: Token, char: string): boolean {
  if (token.kind === 'any') return true;
  if (token.kind === 'char') return token.char === char;
  if (token.kind === 'class') {
    const code = char.codePointAt(0) as number;
    const inside = token.ranges.some(([low, high]) => code >= low && code <= high);
    return inside !== token.negated;
  }
  return false;
}

/**
 * Whether one segment matches one name. Two pointers with a return point at the last `*`: every (token, character)
 * pair is looked at at most once per `*`, and a later `*` never returns to an earlier one, so the work is at most
 * tokens × characters, never exponential.
 */
function segmentMatches(
  segment: Segment,
  name: string,
  chars: readonly string[],
  counter: StepCounter,
): boolean {
  if (segment.kind === 'globstar') return true;
  if (segment.kind === 'never') return false;
  if (segment.kind === 'literal') {
    counter.steps += 1;
    return segment.text === name;
  }
  const { tokens } = segment;
  let token = 0;
  let char = 0;
  let starToken = -1;
  let starChar = 0;
  while (char < chars.length) {
    counter.steps += 1;
    const current = tokens[token];
    if (current?.kind === 'star') {
      starToken = token;
      starChar = char;
      token += 1;
    } else if (current !== undefined && tokenMatches(current, chars[char] as string)) {
      token += 1;
      char += 1;
    } else if (starToken >= 0) {
      token = starToken + 1;
      starChar += 1;
      char = starChar;
    } else {
      return false;
    }
  }
  while (tokens[token]?.kind === 'star') token += 1;
  return token === tokens.length;
}

/**
 * How a pattern covers `names`: `none`; `directory` when only the path itself matches and the pattern is for
 * folders only (so it covers the path only if that is a folder); `any` when it covers the path whatever it is.
 */
export type Coverage = 'none' | 'directory' | 'any';

/**
 * Whether the pattern matches `names` (a path below the root) or one of the folders above it.
 */
export function patternMatches(
  pattern: CompiledPattern,
  names: readonly string[],
  isDirectory: boolean,
  counter: StepCounter,
): boolean {
  const coverage = patternCoverage(pattern, names, counter);
  return coverage === 'any' || (coverage === 'directory' && isDirectory);
}

/**
 * The answer for a file and for a folder at once (one pass). The segments are the states of an automaton: after
 * each name, the set of states reached; `**` stays put on any name and may also be skipped. Each state tries the
 * name once, so the whole path costs at most pattern length × path length.
 */
export function patternCoverage(
  pattern: CompiledPattern,
  names: readonly string[],
  counter: StepCounter,
): Coverage {
  const { segments } = pattern;
  const last = segments.length;
  let states = new Uint8Array(last + 1);
  let next = new Uint8Array(last + 1);
  states[0] = 1;
  skipGlobstars(states, segments);
  for (let index = 0; index < names.length; index += 1) {
    const name = names[index] as string;
    let chars: string[] | undefined;
    next.fill(0);
    let reached = false;
    for (let state = 0; state < last; state += 1) {
      if (states[state] === 0) continue;
      counter.steps += 1;
      const segment = segments[state] as Segment;
      if (segment.kind === 'globstar') {
        next[state] = 1;
        reached = true;
      } else {
        chars ??= Array.from(name);
        if (segmentMatches(segment, name, chars, counter)) {
          next[state + 1] = 1;
          reached = true;
        }
      }
    }
    if (!reached) return 'none';
    skipGlobstars(next, segments);
    [states, next] = [next, states];
    if (states[last] === 1) {
      // A folder above the path covers what is inside it; the path itself is covered as what it is.
      if (index < names.length - 1 || !pattern.directoryOnly) return 'any';
      return 'directory';
    }
  }
  return 'none';
}

/** `**` may match no name at all: a state at one also stands at the next (one sweep, as they only lead forward). */
function skipGlobstars(states: Uint8Array, segments: readonly Segment[]): void {
  for (let state = 0; state < segments.length; state += 1) {
    if (states[state] === 1 && segments[state]?.kind === 'globstar') states[state + 1] = 1;
  }
}
