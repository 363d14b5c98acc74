/**
 * Reading the sandbox's input files (`src/sandbox/input-file.ts`): regular files only, the bytes actually read counted
 * against the cap (not the size `stat` gives), gzip data capped when decompressed, cancellation between chunks.
 * Synthetic bytes only.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { InputFileError, readDecompressedChunks, readRegularFile, readRegularFileSync } from '../../src/sandbox/input-file.js';
import { HAS_SPECIAL_FILES, makeFifo } from '../helpers/special-files.js';
import { tempDirsPerTest } from './fixtures.js';

const dir = tempDirsPerTest();

/** Every chunk of `readDecompressedChunks`, joined. */
async function decompressed(file: string, maxBytes: number, signal?: AbortSignal): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of readDecompressedChunks(file, { maxBytes, signal })) chunks.push(chunk);
  return Buffer.concat(chunks);
}

describe('readRegularFile', () => {
  it('reads a file of exactly the cap, and refuses one byte more, naming the file and the cap', async () => {
    const file = join(dir(), 'a.json');
    writeFileSync(file, Buffer.alloc(2048, 0x61));
    expect(await readRegularFile(file, { maxBytes: 2048 })).toEqual(Buffer.alloc(2048, 0x61));
    expect(readRegularFileSync(file, 2048)).toEqual(Buffer.alloc(2048, 0x61));
    const error = await readRegularFile(file, { maxBytes: 2047 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputFileError);
    expect(error).toMatchObject({ code: 'ETOOBIG', file, limit: 2047, message: `${file} is larger than 2047 bytes, the limit for this kind of file` });
    expect(() => readRegularFileSync(file, 1024)).toThrow(`${file} is larger than 1 KiB, the limit for this kind of file`);
  });

  it.skipIf(!existsSync('/proc/self/status'))('counts the bytes read, not the size stat gives (0 for /proc/self/status)', async () => {
    await expect(readRegularFile('/proc/self/status', { maxBytes: 16 })).rejects.toMatchObject({ code: 'ETOOBIG' });
    expect(() => readRegularFileSync('/proc/self/status', 16)).toThrow(/is larger than 16 bytes/);
    expect((await readRegularFile('/proc/self/status', { maxBytes: 1 << 20 })).toString()).toMatch(/^Name:/);
  });

  it.skipIf(!HAS_SPECIAL_FILES)('refuses a FIFO, a directory and a device without reading them', async () => {
    const d = dir();
    const fifo = makeFifo(join(d, 'pipe'));
    await expect(readRegularFile(fifo, { maxBytes: 10 })).rejects.toMatchObject({ code: 'ENOTREG', problem: 'is a FIFO (named pipe), not a regular file; only regular files are read' });
    expect(() => readRegularFileSync(fifo, 10)).toThrow(`${fifo} is a FIFO (named pipe), not a regular file`);
    await expect(readRegularFile(d, { maxBytes: 10 })).rejects.toMatchObject({ code: 'EISDIR' });
    await expect(readRegularFile('/dev/null', { maxBytes: 10 })).rejects.toMatchObject({ code: 'ENOTREG', problem: 'is a character device, not a regular file; only regular files are read' });
  });

  it('rejects with an AbortError once the signal has aborted', async () => {
    const file = join(dir(), 'a.json');
    writeFileSync(file, 'тестови данни');
    const controller = new AbortController();
    controller.abort('SIGINT');
    await expect(readRegularFile(file, { maxBytes: 100, signal: controller.signal })).rejects.toMatchObject({ name: 'AbortError', cause: 'SIGINT' });
  });
});

describe('readDecompressedChunks', () => {
  it('gunzips gzip data (by its first bytes), passes plain data, and caps the decompressed bytes', async () => {
    const d = dir();
    const text = Buffer.from('тестови данни\n'.repeat(1000));
    const gz = join(d, 'a.jsonl');
    writeFileSync(gz, gzipSync(text));
    const plain = join(d, 'b.jsonl');
    writeFileSync(plain, text);
    expect(await decompressed(gz, text.length)).toEqual(text);
    expect(await decompressed(plain, text.length)).toEqual(text);
    await expect(decompressed(gz, text.length - 1)).rejects.toThrow(`${gz} decompresses to more than ${text.length - 1} bytes, the limit for this kind of file`);
    await expect(decompressed(plain, text.length - 1)).rejects.toThrow(`${plain} is larger than ${text.length - 1} bytes`);
  });

  it('stops between chunks when the signal aborts', async () => {
    const file = join(dir(), 'big.jsonl.gz');
    writeFileSync(file, gzipSync(Buffer.alloc(8 << 20, 0x0a)));
    const controller = new AbortController();
    let chunks = 0;
    const reading = (async () => {
      for await (const _ of readDecompressedChunks(file, { maxBytes: 16 << 20, signal: controller.signal })) {
        if (++chunks === 1) controller.abort('SIGTERM');
      }
    })();
    await expect(reading).rejects.toMatchObject({ name: 'AbortError', cause: 'SIGTERM' });
    expect(chunks).toBe(1);
  });
});
