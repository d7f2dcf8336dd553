import { setImmediate as nextTurn } from 'node:timers/promises';
import {
  type CompiledPattern,
  compilePattern,
  patternMatches,
  type StepCounter,
} from '@aerie/daemon/glob/gitignore-pattern';
import { IGNORE_LIMITS, ignoreRulesOverLimits } from '@aerie/shared/backups/ignore-limits';

/** `.pteroignore` is read only when it is a regular file of at most this many bytes (Wings: 32 KiB). */
export const IGNORE_FILE_MAX_BYTES = 32 * 1024;
export const IGNORE_FILE_NAME = '.pteroignore';

/**
 * Bounds on one backup's rules (comments and blank lines not counted): past them the backup fails, saying why. The
 * panel refuses a backup's `ignored` past the same bounds (packages/shared).
 */
export { IGNORE_LIMITS };

/** Matching gives the event loop back after about this much work (well under a millisecond). */
const STEPS_PER_TURN = 20_000;

/** Rules past the bounds; the message is for the user (the console) and the log. */
export class IgnoreRulesError extends Error {}

/**
 * A backup's ignore rules: one gitignore pattern per line (`*`, `**`, `?`, `[a-z]`, a leading `/` anchors to the
 * server root, a trailing `/` matches directories only, `#` starts a comment), and a leading `!` takes a path back
 * in. Every rule that matches a path or one of its parent directories has its say and the last one wins, so
 * `logs` then `!logs/keep.log` keeps that one file (unlike git, which cannot re-include below an excluded folder;
 * Wings' matcher behaves this way too). Names are compared case-sensitively, as Wings and git on Linux do.
 *
 * Matching is linear in pattern × path (gitignore-pattern.ts): the rules come from the panel's `ignored` or from a
 * `.pteroignore` the game itself may write, so they must not be able to stall the node.
 * @throws IgnoreRulesError when there are more than {@link IGNORE_LIMITS}.rules rules or one is longer than
 *   {@link IGNORE_LIMITS}.ruleLength characters
 */
export class BackupIgnoreRules {
  readonly #rules: CompiledPattern[] = [];
  readonly #counter: StepCounter = { steps: 0 };
  #stepsAtLastTurn = 0;

  constructor(text: string, source = 'The ignore rules') {
    // The panel counts with the same function, so what it accepted is never refused here.
    const problem = ignoreRulesOverLimits(text, source);
    if (problem !== undefined) throw new IgnoreRulesError(problem);
    for (const line of text.split(/\r?\n/)) {
      const pattern = compilePattern(line);
      if (pattern !== undefined) this.#rules.push(pattern);
    }
  }

  get isEmpty(): boolean {
    return this.#rules.length === 0;
  }

  /** Characters and states looked at so far by every match (the work the rules cost, for tests and figures). */
  get steps(): number {
    return this.#counter.steps;
  }

  /**
   * A directory that is ignored can be skipped whole only when no rule could take something inside it back.
   */
  get canSkipIgnoredDirectories(): boolean {
    return !this.#rules.some((rule) => rule.negated);
  }

  /** Whether the path (relative to the server root, `/`-separated, no leading `/`) stays out of the backup. */
  ignores(relativePath: string, isDirectory = false): boolean {
    const decisions = this.#decide(relativePath, isDirectory);
    for (;;) {
      const next = decisions.next();
      if (next.done === true) return next.value;
    }
  }

  /**
   * The same answer, giving the event loop back every few thousand steps, so a large rule set on a deep path
   * never holds up the node's other servers (what the backup walk calls).
   */
  async ignoresInTurn(relativePath: string, isDirectory: boolean): Promise<boolean> {
    const decisions = this.#decide(relativePath, isDirectory);
    for (;;) {
      const next = decisions.next();
      if (next.done === true) return next.value;
      if (this.#counter.steps - this.#stepsAtLastTurn >= STEPS_PER_TURN) {
        this.#stepsAtLastTurn = this.#counter.steps;
        await nextTurn();
      }
    }
  }

  /** Tries the rules in order, pausing (yield) after each one; returns whether the last matching one ignores. */
  *#decide(relativePath: string, isDirectory: boolean): Generator<void, boolean> {
    const names = relativePath.split('/').filter((name) => name !== '');
    if (names.length === 0) return false;
    let ignored = false;
    for (const rule of this.#rules) {
      if (patternMatches(rule, names, isDirectory, this.#counter)) ignored = !rule.negated;
      yield;
    }
    return ignored;
  }
}
