/**
 * Reads `WORKER_IDS`: the workers one process holds, as `@discordjs/ws` takes `shardIds`. A list
 * (`0,3,5`), a range (`3-5`, both ends included), or both (`0,3-5`); `none` for a process that
 * holds no worker (a boss whose workers all run elsewhere).
 *
 * @returns the ids in the order written, or why the text is not a set of ids of `count` workers
 * (phrased to follow the key: "WORKER_IDS: …").
 */
export function readWorkerIds(text: string, count: number): number[] | string {
	if (text.toLowerCase() === 'none') return [];
	const ids: number[] = [];
	for (const part of text.split(',').map((item) => item.trim())) {
		const range = /^(\d+)\s*-\s*(\d+)$/.exec(part);
		if (range) {
			const start = Number(range[1]);
			const end = Number(range[2]);
			if (start > end) return `the range ${part} runs backwards; write it low to high (${end}-${start})`;
			// Checked before the range is spelled out, so a typo like 3-500000 costs nothing.
			if (end >= count) return outsideOf([end], count);
			for (let id = start; id <= end; id++) ids.push(id);
		} else if (/^\d+$/.test(part)) {
			ids.push(Number(part));
		} else {
			return `${JSON.stringify(part)} is not a worker id; give ids from 0, as a list (0,3,5), a range (3-5) or none`;
		}
	}
	const seen = new Set<number>();
	for (const id of ids) {
		if (seen.has(id)) return `worker ${id} is named twice; each worker is held by one process`;
		seen.add(id);
	}
	const outside = ids.filter((id) => id >= count);
	return outside.length > 0 ? outsideOf(outside, count) : ids;
}

function outsideOf(ids: readonly number[], count: number): string {
	const which = ids.length === 1 ? `worker ${ids[0]} is` : `workers ${ids.join(', ')} are`;
	return `${which} not among the ${count} workers of WORKER_COUNT (ids 0 to ${count - 1})`;
}
