import {
  type CompiledPattern,
  compilePattern,
  patternCoverage,
  type StepCounter,
} from '@aerie/daemon/glob/gitignore-pattern';
import { FilesystemError } from './filesystem-error';

/**
 * Bounds on an egg's denylist (blank entries and `#` comments not counted). A check costs at most about
 * (characters + patterns) × path length matcher steps and runs on every change to a file, so both are kept small;
 * eggs list a handful of short patterns.
 */
export const DENYLIST_LIMITS = {
  patterns: 64,
  characters: 512,
} as const;

/**
 * The egg's `file_denylist`: gitignore patterns (Wings uses go-gitignore) matched against the path below the
 * root, without regular expressions (glob/gitignore-pattern.ts: pattern × path steps at most, so no pattern can
 * stall the node). A match on a parent directory covers everything inside it; `!pattern` takes a path back and
 * the last matching pattern wins, also below a denied folder (as Wings; git could not take it back). Names are
 * compared case-sensitively, as Wings does.
 *
 * A denylist past {@link DENYLIST_LIMITS} is not used in part: every change is refused, saying why, until the egg
 * is fixed (reads stay allowed, as they are for denied files).
 */
export class Denylist {
  readonly #rules: CompiledPattern[] = [];
  readonly #counter: StepCounter = { steps: 0 };
  readonly #unusable: string | undefined;

  constructor(patterns: readonly string[] = []) {
    let count = 0;
    let characters = 0;
    for (const pattern of patterns) {
      const rule = compilePattern(pattern);
      if (rule === undefined) continue;
      count += 1;
      characters += pattern.trim().length;
      // Past the bounds nothing is matched, so nothing more needs compiling.
      if (overLimits(count, characters) === undefined) this.#rules.push(rule);
    }
    this.#unusable = overLimits(count, characters);
  }

  /** Characters and states looked at so far by every check (the work the patterns cost, for tests and figures). */
  get steps(): number {
    return this.#counter.steps;
  }

  /** @throws FilesystemError EDENIED, saying why, when the denylist is past its bounds (nothing may change). */
  assertUsable(): void {
    if (this.#unusable !== undefined) throw new FilesystemError('EDENIED', this.#unusable);
  }

  /**
   * Whether the path is covered. It is tested as a file and as a directory (in one pass): the caller may not know
   * which it is (a delete of `config` must meet a `config/` pattern), and refusing too much is the safe side.
   * @throws FilesystemError EDENIED when the denylist is past its bounds
   */
  matches(components: readonly string[]): boolean {
    this.assertUsable();
    if (this.#rules.length === 0 || components.length === 0) return false;
    let asFile = false;
    let asDirectory = false;
    for (const rule of this.#rules) {
      const coverage = patternCoverage(rule, components, this.#counter);
      if (coverage === 'none') continue;
      asDirectory = !rule.negated;
      if (coverage === 'any') asFile = !rule.negated;
    }
    return asFile || asDirectory;
  }
}

function overLimits(patterns: number, characters: number): string | undefined {
  const fix = "An administrator must shorten the egg's file denylist.";
  if (patterns > DENYLIST_LIMITS.patterns) {
    return `Files cannot be modified: the egg's file denylist has ${patterns} patterns, at most ${DENYLIST_LIMITS.patterns} are allowed. ${fix}`;
  }
  if (characters > DENYLIST_LIMITS.characters) {
    return `Files cannot be modified: the egg's file denylist has ${characters} characters of patterns, at most ${DENYLIST_LIMITS.characters} are allowed. ${fix}`;
  }
  return undefined;
}
