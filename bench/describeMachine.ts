import { cpus, totalmem } from 'node:os';

/** The machine a results file was measured on, with its load when the run began, in a fixed key order. */
export function describeMachine(loadAverageAtStart: number) {
	const cpu = cpus();
	return {
		cpus: cpu.length,
		cpuModel: cpu[0]?.model.trim() ?? 'unknown',
		totalMemoryMB: Math.round(totalmem() / 2 ** 20),
		loadAverageAtStart: Math.round(loadAverageAtStart * 100) / 100,
		node: process.version,
		platform: `${process.platform} ${process.arch}`,
	};
}
