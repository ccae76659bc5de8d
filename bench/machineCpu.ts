import { readFile } from 'node:fs/promises';

/** The whole machine's CPU time so far, from the first line of `/proc/stat`, in clock ticks. */
export interface MachineCpu {
	busyTicks: number;
	totalTicks: number;
}

/**
 * Reads `/proc/stat`: how busy every core was, whoever used it. The benchmark shares its cores
 * with other work; the share busy during a window says how much was left to the subject.
 * @see https://man7.org/linux/man-pages/man5/proc_stat.5.html
 */
export async function readMachineCpu(): Promise<MachineCpu> {
	const line = (await readFile('/proc/stat', 'utf8')).split('\n', 1)[0] ?? '';
	// cpu  user nice system idle iowait irq softirq steal guest guest_nice (guest time is already in user)
	const [user, nice, system, idle, iowait, irq, softirq, steal] = line.trim().split(/\s+/).slice(1, 9).map(Number);
	const values = [user, nice, system, idle, iowait, irq, softirq, steal];
	if (!values.every((value) => value !== undefined && Number.isFinite(value))) throw new Error(`/proc/stat starts with an unexpected line: ${line}`);
	const total = values.reduce<number>((sum, value) => sum + value!, 0);
	return { busyTicks: total - idle! - iowait!, totalTicks: total };
}

/** The share of all cores' time that was busy between two readings (1 = every core, all the time). */
export function busyShare(before: MachineCpu, after: MachineCpu): number | null {
	const total = after.totalTicks - before.totalTicks;
	return total > 0 ? (after.busyTicks - before.busyTicks) / total : null;
}
