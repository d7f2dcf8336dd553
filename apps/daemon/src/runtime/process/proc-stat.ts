import { closeSync, openSync, readFileSync, readSync } from 'node:fs';
import { endianness } from 'node:os';

/** What /proc/<pid>/stat says about one live process. */
export interface ProcStat {
  /** Its parent's pid. */
  parentId: number;
  /** The process group it belongs to. */
  groupId: number;
  /** utime + stime, in clock ticks. */
  cpuTicks: number;
  /** Resident set size, in bytes (the same counters as VmRSS in /proc/<pid>/status). */
  rssBytes: number;
  /** When it started, in clock ticks since boot: with the pid, what tells it from a later process given that pid. */
  startTicks: number;
}

/** A stat line is a few hundred bytes; a 16-byte command name keeps it well under this. */
const STAT_BUFFER = Buffer.alloc(1024);

/** auxv's AT_PAGESZ: the kernel tells every process its page size there. */
const AT_PAGESZ = 6n;
const DEFAULT_PAGE_SIZE = 4096;
let pageSize: number | undefined;

/** The page size stat's `rss` is counted in (4 KiB on x86, 4/16/64 KiB on arm64 depending on the kernel). */
function systemPageSize(): number {
  if (pageSize !== undefined) return pageSize;
  pageSize = DEFAULT_PAGE_SIZE;
  try {
    const auxv = readFileSync('/proc/self/auxv');
    const little = endianness() === 'LE';
    // (type, value) pairs of machine words: 4 bytes on 32-bit arm and x86, 8 on the 64-bit architectures.
    const word = process.arch === 'arm' || process.arch === 'ia32' ? 4 : 8;
    const read = (offset: number) =>
      word === 8
        ? little
          ? auxv.readBigUInt64LE(offset)
          : auxv.readBigUInt64BE(offset)
        : BigInt(little ? auxv.readUInt32LE(offset) : auxv.readUInt32BE(offset));
    for (let offset = 0; offset + 2 * word <= auxv.length; offset += 2 * word) {
      if (read(offset) === AT_PAGESZ) {
        pageSize = Number(read(offset + word));
        break;
      }
    }
  } catch {
    // No /proc/self/auxv: the common page size.
  }
  return pageSize;
}

/**
 * Reads /proc/<pid>/stat synchronously: one small read of a kernel-generated file takes microseconds, where the
 * promise API spends four thread-pool round trips (open, fstat, read, close) on it. Undefined when the process is
 * gone or a zombie (its resources are released; only its exit status is left).
 */
export function readProcStat(pid: number): ProcStat | undefined {
  let fd: number | undefined;
  let length: number;
  try {
    fd = openSync(`/proc/${pid}/stat`, 'r');
    length = readSync(fd, STAT_BUFFER, 0, STAT_BUFFER.length, 0);
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
  const stat = STAT_BUFFER.toString('latin1', 0, length);
  // After the command name, which is in parentheses and may hold spaces and parentheses: [0] state, [1] ppid, [2] pgrp,
  // [11] utime, [12] stime, [19] starttime, [21] rss in pages (stat(5) fields 3, 5, 14, 15, 22, 24).
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  if (fields[0] === 'Z' || fields.length < 22) return undefined;
  return {
    parentId: Number(fields[1]),
    groupId: Number(fields[2]),
    cpuTicks: Number(fields[11]) + Number(fields[12]),
    rssBytes: Number(fields[21]) * systemPageSize(),
    startTicks: Number(fields[19]),
  };
}
