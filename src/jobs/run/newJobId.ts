/**
 * Makes job ids that sort by time and never repeat in one process: `20261202T103000Z-role-add-3`.
 * Each manager has its own counter.
 */
export function jobIds(now: () => Date = () => new Date()): (kind: string) => string {
	let counter = 0;
	return (kind) => {
		const stamp = now()
			.toISOString()
			.replace(/[-:]/g, '')
			.replace(/\.\d+Z$/, 'Z');
		return `${stamp}-${kind}-${++counter}`;
	};
}
