import ignore, { type Ignore } from 'ignore';

/**
 * The egg's `file_denylist`: gitignore patterns (Wings uses go-gitignore) matched against the path below the
 * root. A match on a parent directory covers everything inside it.
 */
export class Denylist {
  private readonly matcher: Ignore | undefined;

  constructor(patterns: readonly string[] = []) {
    const usable = patterns.map((pattern) => pattern.trim()).filter((pattern) => pattern !== '');
    this.matcher = usable.length > 0 ? ignore().add(usable) : undefined;
  }

  /**
   * Whether the path is covered. It is tested as a file and as a directory: the caller may not know which it is
   * (a delete of `config` must meet a `config/` pattern), and refusing too much is the safe side.
   */
  matches(components: readonly string[]): boolean {
    if (this.matcher === undefined || components.length === 0) return false;
    const path = components.join('/');
    return this.matcher.ignores(path) || this.matcher.ignores(`${path}/`);
  }
}
