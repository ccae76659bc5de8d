/**
 * The joiners not yet handled over time: at `from`, and every `stepMs` after, how many had
 * joined (`joinedAt`, Unix ms) and not yet been handled (`handledAt`; a joiner never handled is
 * left out of it, and stays in the backlog). Samples run until the first one past every event
 * at which the backlog is what it ends as (0 when every joiner was handled). Pure.
 *
 * @returns the backlog at `from + n × stepMs`, for n = 0, 1, …
 */
export function backlogOverTime(joinedAt: readonly number[], handledAt: readonly number[], options: { from: number; stepMs: number }): number[] {
	const { from, stepMs } = options;
	if (!(stepMs > 0)) throw new RangeError(`stepMs must be positive, got ${stepMs}`);
	const joins = [...joinedAt].sort((a, b) => a - b);
	const handles = [...handledAt].sort((a, b) => a - b);
	const last = Math.max(from, joins.at(-1) ?? from, handles.at(-1) ?? from);
	const samples: number[] = [];
	let joined = 0;
	let handled = 0;
	for (let n = 0; ; n++) {
		const at = from + n * stepMs;
		while (joined < joins.length && joins[joined]! <= at) joined++;
		while (handled < handles.length && handles[handled]! <= at) handled++;
		samples.push(joined - handled);
		if (at >= last) return samples;
	}
}
