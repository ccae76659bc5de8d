import { sleepUntil } from '../../util/sleepUntil.js';
import { whenAborted } from '../../util/whenAborted.js';

/**
 * How long a standing rule follows joins and changes after its sweep: until it is cancelled
 * (`signal`), its `until` comes (Unix ms; never when absent), or every slice has ended (`ends`: no
 * worker can go on).
 */
export async function followUntil(signal: AbortSignal, ends: Promise<unknown>, until: number | undefined): Promise<void> {
	const over = new AbortController();
	try {
		await Promise.race([whenAborted(signal), ends, ...(until === undefined ? [] : [sleepUntil(until, over.signal)])]);
	} finally {
		over.abort();
	}
}
