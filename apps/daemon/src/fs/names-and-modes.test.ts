import { describe, expect, it } from 'vitest';
import { detectArchive } from './archive-reader';
import { Denylist } from './denylist';
import { modeBits, modeString, parseMode } from './file-mode';
import { archiveName, copyNameCandidates, splitExtension } from './file-names';
import { joinComponents, pathComponents } from './jail-path';
import { mimeFromContent, mimeFromName } from './mime';

describe('paths', () => {
  it('normalises names below the root and refuses climbing above it', () => {
    expect(pathComponents('/')).toEqual([]);
    expect(pathComponents('')).toEqual([]);
    expect(pathComponents('/a//b/./c/')).toEqual(['a', 'b', 'c']);
    expect(pathComponents('a/b/../c')).toEqual(['a', 'c']);
    for (const bad of ['..', '/..', '../a', 'a/../../b', './..', 'a/b/../../..']) {
      expect(() => pathComponents(bad), bad).toThrow(expect.objectContaining({ code: 'EOUTSIDE' }));
    }
    expect(() => pathComponents('a\0b')).toThrow(expect.objectContaining({ code: 'EINVALID' }));
    expect(joinComponents('/plugins', '../server.jar')).toEqual(['server.jar']);
    expect(() => joinComponents('/plugins', '../../x')).toThrow(
      expect.objectContaining({ code: 'EOUTSIDE' }),
    );
  });
});

describe('modes', () => {
  it('prints ten characters like ls', () => {
    expect(modeString(0o100644)).toBe('-rw-r--r--');
    expect(modeString(0o040755)).toBe('drwxr-xr-x');
    expect(modeString(0o120777)).toBe('lrwxrwxrwx');
    expect(modeString(0o104755)).toBe('-rwsr-xr-x');
    expect(modeString(0o041777)).toBe('drwxrwxrwt');
    expect(modeString(0o102644)).toBe('-rw-r-Sr--');
    expect(modeString(0o010600)).toBe('prw-------');
    expect(modeBits(0o100644)).toBe('644');
  });

  it('parses octal modes from strings and digit numbers only', () => {
    expect(parseMode('755')).toBe(0o755);
    expect(parseMode('0644')).toBe(0o644);
    expect(parseMode(755)).toBe(0o755);
    // setuid, setgid and sticky are dropped.
    expect(parseMode('4755')).toBe(0o755);
    expect(parseMode('7777')).toBe(0o777);
    for (const bad of ['8', '7777 ', 'abc', '', '12345', -1, 7.5, null, undefined, {}]) {
      expect(() => parseMode(bad), String(bad)).toThrow(expect.objectContaining({ code: 'EINVALID' }));
    }
  });
});

describe('names', () => {
  it('splits extensions the way Wings copies', () => {
    expect(splitExtension('a.tar.gz')).toEqual({ stem: 'a', extension: '.tar.gz' });
    expect(splitExtension('.bashrc')).toEqual({ stem: '.bashrc', extension: '' });
    expect(splitExtension('world')).toEqual({ stem: 'world', extension: '' });
    const candidates = copyNameCandidates('log.txt', new Date(2026, 0, 2, 3, 4, 5));
    expect(candidates.slice(0, 3)).toEqual(['log copy.txt', 'log copy 1.txt', 'log copy 2.txt']);
    expect(candidates).toHaveLength(52);
    expect(candidates[50]).toBe('log copy 50.txt');
    expect(candidates[51]).toMatch(/^logcopy\.2026-01-02T03:04:05[+-]\d\d:\d\d\.txt$/);
    expect(archiveName(new Date(2026, 0, 2, 3, 4, 5), 'tar.gz')).toMatch(
      /^archive-2026-01-02T030405[+-]\d{4}\.tar\.gz$/,
    );
  });

  it('guesses mime types by extension, then by content', () => {
    expect(mimeFromName('a.tar.gz')).toBe('application/gzip');
    expect(mimeFromName('a.zst')).toBe('application/zstd');
    expect(mimeFromName('plugin.jar')).toBe('application/java-archive');
    expect(mimeFromName('server.properties')).toBeUndefined();
    expect(mimeFromName('.env')).toBeUndefined();
    expect(mimeFromContent(Buffer.from('motd=A Minecraft Server\n'))).toBe('text/plain');
    expect(mimeFromContent(Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 1]))).toBe('application/octet-stream');
    expect(mimeFromContent(Buffer.from([0xff, 0xfe, 0xfd]))).toBe('application/octet-stream');
  });

  it('recognises archives by their first bytes', () => {
    expect(detectArchive(Buffer.from('PK\x03\x04rest', 'latin1'))).toBe('zip');
    expect(detectArchive(Buffer.from([0x1f, 0x8b, 8]))).toBe('gzip');
    expect(detectArchive(Buffer.from('BZh91AY', 'latin1'))).toBe('bzip2');
    expect(detectArchive(Buffer.from([0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00]))).toBe('xz');
    expect(detectArchive(Buffer.from([0x28, 0xb5, 0x2f, 0xfd]))).toBe('zstd');
    const tar = Buffer.alloc(512);
    tar.write('ustar', 257, 'latin1');
    expect(detectArchive(tar)).toBe('tar');
    expect(detectArchive(Buffer.from('Rar!\x1a\x07', 'latin1'))).toBeUndefined();
  });
});

describe('denylist', () => {
  it('matches gitignore patterns, parents included', () => {
    const denylist = new Denylist(['*.jar', '/config/', '!allowed.jar', 'logs/*.log', '']);
    expect(denylist.matches(['server.jar'])).toBe(true);
    expect(denylist.matches(['plugins', 'x.jar'])).toBe(true);
    expect(denylist.matches(['allowed.jar'])).toBe(false);
    expect(denylist.matches(['config'])).toBe(true);
    expect(denylist.matches(['config', 'a.yml'])).toBe(true);
    expect(denylist.matches(['sub', 'config', 'a.yml'])).toBe(false);
    expect(denylist.matches(['logs', 'latest.log'])).toBe(true);
    expect(denylist.matches(['readme.txt'])).toBe(false);
    expect(denylist.matches([])).toBe(false);
    expect(new Denylist().matches(['server.jar'])).toBe(false);
  });
});
