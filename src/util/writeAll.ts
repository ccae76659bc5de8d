import type { open } from 'node:fs/promises';

export type FileHandle = Awaited<ReturnType<typeof open>>;

/** Writes all of `text`: a write to a regular file may still be short (a full disk, a signal). */
export async function writeAll(handle: FileHandle, text: string): Promise<void> {
	const buffer = Buffer.from(text, 'utf8');
	let written = 0;
	while (written < buffer.length) {
		const { bytesWritten } = await handle.write(buffer, written, buffer.length - written);
		written += bytesWritten;
	}
}
