/**
 * The flags of `permission` that `holds` says are missing, asked one flag at a time; for a
 * caller that knows some are. A single flag is the answer itself, without asking again.
 */
export function missingBits(permission: bigint, holds: (flag: bigint) => boolean): bigint {
	if ((permission & (permission - 1n)) === 0n) return permission;
	let missing = 0n;
	for (let rest = permission; rest !== 0n; rest &= rest - 1n) {
		const flag = rest & -rest;
		if (!holds(flag)) missing |= flag;
	}
	return missing;
}
