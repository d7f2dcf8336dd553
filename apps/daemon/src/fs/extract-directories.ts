import type { DirectoryHandle, Jail } from './jail';

/**
 * The directories one extraction writes into, kept open between entries. Archives list a directory's files
 * together, so walking from the root for every entry (an open, a readlink and a close per level) would cost far
 * more than writing the file. Each handle was verified beneath the root when opened through the jail, and is
 * verified again on its descriptor before every use, so a directory moved out since is refused as it would be on
 * a fresh walk; a name swapped for a symlink meanwhile changes nothing, since the descriptor is not a path.
 */
export class ExtractDirectories {
  private readonly open = new Map<string, DirectoryHandle>();

  constructor(
    readonly jail: Jail,
    /** A few levels of a depth-first archive; bounded so a wide archive does not pile up descriptors. */
    private readonly capacity = 16,
  ) {}

  /** The verified directory `components` (below the root), made 0755 with its missing parents when absent. */
  async get(components: readonly string[]): Promise<DirectoryHandle> {
    const key = components.join('/');
    const cached = this.open.get(key);
    if (cached !== undefined) {
      try {
        await this.jail.verify(cached.handle);
      } catch (error) {
        await this.forget(key);
        throw error;
      }
      this.open.delete(key);
      this.open.set(key, cached);
      return cached;
    }
    const opened = await this.jail.openDirectory(components, { create: true });
    this.open.set(key, opened);
    if (this.open.size > this.capacity) {
      const oldest = this.open.keys().next();
      if (oldest.done !== true) await this.forget(oldest.value);
    }
    return opened;
  }

  /** Drops a directory that went away meanwhile, so the next `get` walks (and creates) it again. */
  async forget(key: string | readonly string[]): Promise<void> {
    const name = typeof key === 'string' ? key : key.join('/');
    const handle = this.open.get(name);
    this.open.delete(name);
    await handle?.close();
  }

  async closeAll(): Promise<void> {
    const handles = [...this.open.values()];
    this.open.clear();
    await Promise.all(handles.map((handle) => handle.close()));
  }
}
