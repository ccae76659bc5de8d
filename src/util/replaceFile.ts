import { open, rename } from 'node:fs/promises';
import { dirname } from 'node:path';
import { syncDirectory } from './syncDirectory.js';
import { writeAll } from './writeAll.js';

/**
 * Replaces the file at `path` with `text` atomically: a temporary file beside it, made durable,
 * renamed over it, and the folder synced. A crash leaves the old file or the new one, never half
 * of one. `mode` applies to the new file whatever the umask (`0o600`: its owner only).
 */
export async function replaceFile(path: string, text: string, mode: number): Promise<void> {
	const temporary = `${path}.tmp`;
	const handle = await open(temporary, 'w', mode);
	try {
		await handle.chmod(mode);
		await writeAll(handle, text);
		await handle.datasync();
	} finally {
		await handle.close();
	}
	await rename(temporary, path);
	await syncDirectory(dirname(path));
}
