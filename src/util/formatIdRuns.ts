/** `0–4, 7, 9`: ids in order, each run of three or more consecutive ids as a range. */
export function formatIdRuns(ids: readonly number[]): string {
	const runs: string[] = [];
	for (let start = 0; start < ids.length; ) {
		let end = start;
		while (end + 1 < ids.length && ids[end + 1] === ids[end]! + 1) end++;
		runs.push(end === start ? String(ids[start]) : end === start + 1 ? `${ids[start]}, ${ids[end]}` : `${ids[start]}–${ids[end]}`);
		start = end + 1;
	}
	return runs.join(', ');
}
