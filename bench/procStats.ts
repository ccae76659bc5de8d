import { execFileSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';

/** What `/proc` says about one process: its memory high-water mark and the CPU it has used. */
export interface ProcStats {
	/** `VmHWM`: the peak resident set size since the process started. */
	peakRssBytes: number;
	/** User plus system time of all its threads. */
	cpuSeconds: number;
}

/** Clock ticks per second, the unit of `utime` and `stime` (USER_HZ, 100 on every common Linux). */
const CLOCK_TICKS = readClockTicks();

function readClockTicks(): number {
	try {
		const ticks = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());
		return Number.isInteger(ticks) && ticks > 0 ? ticks : 100;
	} catch {
		return 100;
	}
}

/**
 * Reads `/proc/<pid>/status` and `/proc/<pid>/stat`. Linux only, which is where the benchmark runs.
 * @see https://man7.org/linux/man-pages/man5/proc_pid_status.5.html
 */
export async function readProcStats(pid: number): Promise<ProcStats> {
	const [status, stat] = await Promise.all([readFile(`/proc/${pid}/status`, 'utf8'), readFile(`/proc/${pid}/stat`, 'utf8')]);
	const hwm = /^VmHWM:\s+(\d+)\s+kB$/m.exec(status);
	if (!hwm) throw new Error(`/proc/${pid}/status has no VmHWM line`);
	// The command name (field 2) may hold spaces and parentheses; the fields after its closing
	// parenthesis start at field 3 (state), so utime and stime (fields 14 and 15) are at 11 and 12.
	const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
	const ticks = Number(fields[11]) + Number(fields[12]);
	if (!Number.isFinite(ticks)) throw new Error(`/proc/${pid}/stat has no utime and stime`);
	return { peakRssBytes: Number(hwm[1]) * 1024, cpuSeconds: ticks / CLOCK_TICKS };
}
