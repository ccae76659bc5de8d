import type { Logger } from 'pino';
import type { Config } from '../config/index.js';
import { whyNotReady } from '../discord/whyNotReady.js';
import { ServiceHealth } from '../health/index.js';
import type { Job } from '../jobs/index.js';
import type { RunningMassnick } from './RunningMassnick.js';

/**
 * `massnick run`'s health checks and metrics when `MASSNICK_METRICS_PORT` is set: the server and
 * metrics of `massnick start` (src/health/), up before anything connects so a probe sees a start
 * that waits out Discord. What matters most for a standing rule (`--keep`) run for months in a
 * pod: its changes, its joiners' latency, its workers and its 429s. `undefined` without the port.
 *
 * @throws {ConfigError} naming the key when the address cannot be had.
 */
export async function serveRunHealth(config: Config, logger: Logger): Promise<ServiceHealth | undefined> {
	if (!config.metrics) return undefined;
	return ServiceHealth.serve(config.metrics, logger, 'starting: massnick run has not started its job yet');
}

/**
 * Why a `massnick run` is not ready, or `undefined` when it is: its job runs, one of its workers
 * is connected, and `who` (the boss, or the worker that holds the guild for a process without
 * it) is logged in with the guild available. Read from state alone, as `/readyz` must be.
 */
export function runReadiness(massnick: RunningMassnick, job: () => Job | undefined, guildId: string, who: string): () => string | undefined {
	return () => {
		const running = job();
		if (!running) return 'starting: massnick run has not started its job yet';
		if (running.result) return `the job has ended (${running.result.state})`;
		if (running.state === 'cancelling') return 'stopping: the job is being cancelled';
		if (!massnick.fleet.workers.some((worker) => worker.state === 'ready' || worker.state === 'reconnecting')) {
			return "none of this process's workers is connected to Discord";
		}
		let client: Parameters<typeof whyNotReady>[0];
		try {
			client = massnick.guild.client;
		} catch (error) {
			return (error as Error).message;
		}
		return whyNotReady(client, guildId, who);
	};
}
