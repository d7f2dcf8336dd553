import type { DirectoryReader } from '@aerie/daemon/fs/directory-reader';
import type { OpenFile } from '@aerie/daemon/fs/open-file';

export type SftpHandle =
  /** `change`: opened to make (`create`) or change (`write`) the file, reported once it is closed. */
  | { kind: 'file'; path: string; file: OpenFile; change?: 'create' | 'write' | undefined }
  | { kind: 'directory'; path: string; reader: DirectoryReader };

/**
 * The files and folders one connection holds open, under opaque 4-byte ids. Bounded: a client opening without
 * closing runs out of handles (its further opens fail) instead of running the daemon out of descriptors.
 */
export class HandleTable {
  readonly #open = new Map<number, SftpHandle>();
  #next = 1;

  constructor(private readonly max: number) {}

  get size(): number {
    return this.#open.size;
  }

  get full(): boolean {
    return this.#open.size >= this.max;
  }

  /** Registers an open file or folder; the caller checked `full` before opening it. */
  add(handle: SftpHandle): Buffer {
    const id = this.#next;
    this.#next = this.#next >= 0xffff_ffff ? 1 : this.#next + 1;
    this.#open.set(id, handle);
    const buffer = Buffer.alloc(4);
    buffer.writeUInt32BE(id);
    return buffer;
  }

  get(id: Buffer): SftpHandle | undefined {
    return id.length === 4 ? this.#open.get(id.readUInt32BE()) : undefined;
  }

  /** Takes the handle out of the table (the caller closes it). */
  remove(id: Buffer): SftpHandle | undefined {
    const handle = this.get(id);
    if (handle) this.#open.delete(id.readUInt32BE());
    return handle;
  }

  /**
   * Closes everything still open (the connection went): written files settle their quota, and each one closed is
   * handed to `closed`.
   */
  async closeAll(closed: (handle: SftpHandle) => void = () => {}): Promise<void> {
    const handles = [...this.#open.values()];
    this.#open.clear();
    await Promise.all(
      handles.map((handle) =>
        closeHandle(handle).then(
          () => closed(handle),
          () => undefined,
        ),
      ),
    );
  }
}

export function closeHandle(handle: SftpHandle): Promise<void> {
  return handle.kind === 'file' ? handle.file.close() : handle.reader.close();
}
