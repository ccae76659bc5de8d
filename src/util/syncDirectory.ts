import { open } from 'node:fs/promises';

/** Makes a new file's directory entry durable, so the file survives a power cut. */
export async function syncDirectory(dir: string): Promise<void> {
	const handle = await open(dir, 'r');
	try {
		await handle.sync();
	} finally {
		await handle.close();
	}
}
